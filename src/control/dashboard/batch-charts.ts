import type { BatchRecord } from '../../queue/batch-store.js';
import type { BudgetView } from './budget-sampler.js';
import { html, type SafeHtml } from './html.js';
import { lineChart } from './svg-chart.js';

/** Points a chart draws at most: a long batch's seconds are summed into this many steps. */
const MAX_POINTS = 120;

/**
 * Rows with an outcome over time, as a rising line from the submission: the batch's pace, its stalls (a 429 pause, no
 * worker) and its end. `perSecond` is the batch store's count of outcomes per second; `until` (a batch still moving:
 * now) draws a stall up to the present, else the line ends with the last outcome.
 */
export function rowsOverTime(batch: Pick<BatchRecord, 'createdAt'>, perSecond: ReadonlyArray<{ at: number; rows: number }>, until?: number): Array<{ at: number; value: number }> {
  if (perSecond.length === 0) return [];
  const start = Math.min(Date.parse(batch.createdAt), perSecond[0]!.at);
  const end = Math.max(perSecond[perSecond.length - 1]!.at + 1000, until ?? 0);
  const stepMs = Math.max(1000, Math.ceil((end - start) / MAX_POINTS / 1000) * 1000);
  const points = [{ at: start, value: 0 }];
  let total = 0;
  let index = 0;
  for (let at = start + stepMs; at < end + stepMs; at += stepMs) {
    while (index < perSecond.length && perSecond[index]!.at < at) total += perSecond[index++]!.rows;
    points.push({ at: Math.min(at, end), value: total });
  }
  return points;
}

export function rowsChart(batch: BatchRecord, perSecond: ReadonlyArray<{ at: number; rows: number }>, until?: number): SafeHtml {
  const points = rowsOverTime(batch, perSecond, until);
  const last = points[points.length - 1];
  const seconds = last === undefined ? 0 : Math.max(1, Math.round((last.at - points[0]!.at) / 1000));
  const summary =
    last === undefined || last.value === 0 ? 'No row has finished yet.'
    : `${last.value} of ${batch.total} rows finished in ${seconds} s (about ${Math.round((last.value * 60) / seconds)} rows a minute).`;
  return lineChart({ id: 'chart-rows', title: 'Rows finished over time', unit: 'rows', lines: [{ points, className: 'line-rows', label: 'rows finished' }], limits: [{ value: batch.total, className: 'limit-total', label: `${batch.total} rows` }], summary });
}

/**
 * API calls of the fleet with this token, each point the count over the 60 s before it (as the service counts them),
 * against the most the budget lets the fleet send in 60 s (the learned rate plus its bucket). Nothing is scaled up
 * from a few seconds to a minute, so no point shows a pace the service would have refused.
 */
export function callsChart(budget: BudgetView): SafeHtml {
  const points = budget.series.map((s) => ({ at: s.at, value: s.calls }));
  const seconds = Math.round(budget.windowMs / 1000);
  const ceiling = Math.floor(budget.learned.usablePerMinute + budget.learned.bucket);
  const peak = Math.max(0, ...points.map((p) => p.value));
  const summary =
    points.length < 2 ? `Calls are counted while this page is open; the budget lets the fleet send at most ${ceiling} in any 60 s.`
    : `Calls the fleet sent with this token, each point counting the 60 s before it (less for the first minute this page was open): peak ${peak}, now ${budget.callsInWindow} in the last ${seconds} s; the budget allows at most ${ceiling} in 60 s (${Math.floor(budget.learned.usablePerMinute)} a minute and a bucket of ${Math.floor(budget.learned.bucket)}). 429 answers in the last ${seconds} s: ${budget.rateLimitedInWindow}.`;
  return lineChart({
    id: 'chart-calls',
    title: 'API calls in the last 60 s against the budget',
    unit: 'calls in 60 s',
    lines: [{ points, className: 'line-calls', label: 'calls in the 60 s before' }],
    limits: [{ value: ceiling, className: 'limit-learned', label: `at most ${ceiling} in 60 s` }],
    summary,
  });
}

/** Both charts side by side (stacked on a phone). */
export function batchCharts(batch: BatchRecord, perSecond: ReadonlyArray<{ at: number; rows: number }>, budget: BudgetView | undefined, until?: number): SafeHtml {
  return html`<div class="charts">${rowsChart(batch, perSecond, until)}${budget === undefined ? '' : callsChart(budget)}</div>`;
}
