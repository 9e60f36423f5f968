import { html, type SafeHtml } from './html.js';

export interface ChartLine {
  /** Points in time order: `at` epoch ms, `value` in the chart's unit. */
  points: ReadonlyArray<{ at: number; value: number }>;
  /** A class of the stylesheet (`line-calls`, `line-rows`…): colour comes from CSS, never from an inline style. */
  className: string;
  label: string;
}

export interface ChartLimit {
  value: number;
  className: string;
  label: string;
}

export interface LineChartOptions {
  /** Names the chart for screen readers and, with `id`, links its caption. */
  title: string;
  id: string;
  lines: readonly ChartLine[];
  /** Horizontal lines: the limit a series is held to. */
  limits?: readonly ChartLimit[];
  /** Unit of the y axis, e.g. "calls / min". */
  unit: string;
  /** What the chart shows in words, read instead of the picture (and shown under it). */
  summary: string;
  width?: number;
  height?: number;
}

const PAD = { left: 44, right: 10, top: 10, bottom: 22 };

/**
 * A small line chart as inline SVG, rendered on the server: no script, no external asset, nothing the
 * Content-Security-Policy must allow (colours come from classes of the dashboard's stylesheet). Screen readers get its
 * title and the summary; the picture is for eyes.
 */
export function lineChart(options: LineChartOptions): SafeHtml {
  const width = options.width ?? 560;
  const height = options.height ?? 160;
  const all = options.lines.flatMap((line) => line.points);
  const titleId = `${options.id}-title`;
  const summaryId = `${options.id}-summary`;
  const frame = (inner: SafeHtml | string) =>
    html`<figure class="chart" id="${options.id}"><svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${titleId}" aria-describedby="${summaryId}" focusable="false"><title id="${titleId}">${options.title}</title>${inner}</svg><figcaption id="${summaryId}">${options.summary}</figcaption></figure>`;
  if (all.length < 2) return frame(html`<text x="${width / 2}" y="${height / 2}" text-anchor="middle" class="chart-empty">not enough data yet</text>`);

  const start = Math.min(...all.map((p) => p.at));
  const end = Math.max(...all.map((p) => p.at));
  const top = niceCeiling(Math.max(...all.map((p) => p.value), ...(options.limits ?? []).map((limit) => limit.value), 1));
  const x = (at: number) => PAD.left + ((at - start) / Math.max(1, end - start)) * (width - PAD.left - PAD.right);
  const y = (value: number) => height - PAD.bottom - (value / top) * (height - PAD.top - PAD.bottom);
  const round = (n: number) => Math.round(n * 10) / 10;

  const axes = html`<g class="chart-axes"><line x1="${PAD.left}" y1="${y(0)}" x2="${width - PAD.right}" y2="${y(0)}"></line><line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${y(0)}"></line>
<text x="${PAD.left - 4}" y="${y(top) + 4}" text-anchor="end">${formatNumber(top)}</text><text x="${PAD.left - 4}" y="${y(0)}" text-anchor="end">0</text>
<text x="${PAD.left}" y="${height - 6}">${clock(start)}</text><text x="${width - PAD.right}" y="${height - 6}" text-anchor="end">${clock(end)} UTC</text></g>`;
  const limits = (options.limits ?? []).map(
    (limit) => html`<g class="chart-limit ${limit.className}"><line x1="${PAD.left}" y1="${round(y(limit.value))}" x2="${width - PAD.right}" y2="${round(y(limit.value))}"></line><text x="${width - PAD.right}" y="${round(y(limit.value)) - 3}" text-anchor="end">${limit.label}</text></g>`,
  );
  const lines = options.lines.map(
    (line) => html`<polyline class="chart-line ${line.className}" fill="none" points="${line.points.map((p) => `${round(x(p.at))},${round(y(p.value))}`).join(' ')}"></polyline>`,
  );
  return frame(html`${axes}${limits}${lines}`);
}

/** 1, 2 or 5 times a power of ten, at or above `value`: axis labels people read at a glance. */
export function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function formatNumber(value: number): string {
  return value >= 1000 ? `${Math.round(value / 100) / 10}k` : String(Math.round(value));
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
