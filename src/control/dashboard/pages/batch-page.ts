import type { BatchRecord } from '../../../queue/batch-store.js';
import { OUTCOMES, rowsWithOutcome, type Outcome, type RowOutcome } from '../../../queue/row-outcome.js';
import { stepBatchOf } from '../../../workflow/retry-step-batch.js';
import { announcement } from '../announce.js';
import type { BatchActivity } from '../batch-activity.js';
import { batchCharts } from '../batch-charts.js';
import type { BudgetView } from '../budget-sampler.js';
import { cardTable } from '../card-table.js';
import { activityBadge, durationOf, outcomeCounts, percentDone, progressBar, relativeTime, timeOf } from '../format.js';
import { storyFacts } from '../story-facts.js';
import type { ChangeStory } from '../../requests/change-story.js';
import { html, type SafeHtml } from '../html.js';
import { simBadge, stateBadge } from '../badges.js';
import { STILL_SUBMITTING_NOTE } from '../../../queue/submission-note.js';

export interface RowsView {
  filter: Outcome | undefined;
  rows: RowOutcome[];
  /** Rows matching the filter beyond the ones shown. */
  more: boolean;
  offset: number;
}

/** Everything the batch page shows at one moment. */
export interface BatchView {
  batch: BatchRecord;
  activity: BatchActivity;
  budget: BudgetView | undefined;
  rows: RowsView;
  /** Outcomes per second (the batch store's), for the rows chart. */
  perSecond: ReadonlyArray<{ at: number; rows: number }>;
  /** The announcement key the page already showed (`?announced=` of the live part). */
  announced: string | undefined;
  now: number;
  /** Who asked for it, why, who approved it (governance); read for the whole page, not for each refresh. */
  story?: ChangeStory | undefined;
}

function budgetFacts(budget: BudgetView): SafeHtml {
  const { learned, configured } = budget;
  const calls =
    budget.windowMs < 1000 ? html`— (measuring)` : html`${budget.callsInWindow} in the last ${Math.round(budget.windowMs / 1000)} s <span class="muted small">(counted, ${budget.rateLimitedInWindow} answered 429)</span>`;
  const lowered = learned.perMinute < configured.perMinute || learned.bucket < configured.bucket;
  return html`<div><dt>API calls (fleet, this token)</dt><dd>${calls}</dd></div>
    <div><dt>Budget the fleet learned</dt><dd>${Math.floor(learned.usablePerMinute)} / min, bucket ${Math.floor(learned.bucket)}${lowered ? html` <span class="muted small">(lowered by 429s from ${Math.floor(configured.perMinute * (1 - configured.headroom))} / min, bucket ${configured.bucket})</span>` : html` <span class="muted small">(as configured)</span>`}</dd></div>
    <div><dt>Available now</dt><dd>${learned.availableNow} calls</dd></div>
    <div><dt>429 pauses</dt><dd>${budget.rateLimitedInWindow} recently, ${budget.rateLimitedTotal} in all${budget.pausedForMs > 0 ? html` — <strong>paused for ${Math.ceil(budget.pausedForMs / 1000)} s</strong>` : ''}</dd></div>`;
}

function rowsTable(batch: BatchRecord, view: RowsView): SafeHtml {
  const filters: Array<{ label: string; value: Outcome | undefined }> = [{ label: 'All', value: undefined }, ...OUTCOMES.map((outcome) => ({ label: outcome, value: outcome }))];
  const caption = `Rows of the batch${view.filter === undefined ? '' : ` that ended ${view.filter}`}`;
  return html`<section aria-labelledby="rows-title">
<div class="heading"><h2 id="rows-title">Rows</h2>
<p class="downloads">Report: <a id="report-csv" href="/batches/${batch.id}/report.csv" download>CSV</a> · <a id="report-jsonl" href="/batches/${batch.id}/report.jsonl" download>JSON Lines</a></p></div>
<nav aria-label="Filter rows by outcome"><ul class="filters">${filters.map(
    (filter) =>
      html`<li><a id="filter-${filter.value ?? 'all'}" href="/batches/${batch.id}${filter.value === undefined ? '' : `?outcome=${filter.value}`}"${filter.value === view.filter ? html` aria-current="true"` : ''}>${filter.label}${filter.value === undefined ? '' : html` (${batch.counts[filter.value]})`}</a></li>`,
  )}</ul></nav>
${view.rows.length === 0
  ? html`<p>No rows ${view.filter === undefined ? 'have an outcome yet' : html`ended <strong>${view.filter}</strong>`}.</p>`
  : cardTable({
      caption,
      className: 'rows',
      items: view.rows,
      columns: [
        { label: 'Row', cell: (row) => html`${row.row}<div class="muted small">line ${row.line}</div>` },
        { label: 'Action', cell: (row) => row.action },
        { label: 'User or subject', names: true, cell: (row) => row.email ?? row.subject ?? (row.userId === undefined ? '—' : `user ${row.userId}`) },
        { label: 'Outcome', cell: (row) => stateBadge(row.outcome) },
        { label: 'Category', cell: (row) => html`${row.category ?? ''}${row.rule === undefined ? '' : html`<div class="muted small">${row.rule}</div>`}` },
        { label: 'HTTP', cell: (row) => row.status ?? '' },
        { label: 'Code', cell: (row) => row.errorCode ?? '' },
        { label: 'Message', className: 'message', cell: (row) => row.message ?? '' },
        { label: 'Attempts', cell: (row) => row.attempts },
      ],
    })}
${view.more ? html`<p><a id="next-rows" href="/batches/${batch.id}${rowsQuery({ filter: view.filter, offset: view.offset + view.rows.length })}">Next rows</a></p>` : ''}
</section>`;
}

/** The query of a rows view, for links and for the live part's own URL. */
function rowsQuery(view: Pick<RowsView, 'filter' | 'offset'>, announced?: string): string {
  const params = new URLSearchParams();
  if (view.filter !== undefined) params.set('outcome', view.filter);
  if (view.offset > 0) params.set('offset', String(view.offset));
  if (announced !== undefined) params.set('announced', announced);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** What the live region says about the batch, and the key that says when it is news: its state and each tenth. */
function progressNews(view: BatchView): { key: string; text: string } {
  const { batch, activity } = view;
  const done = rowsWithOutcome(batch.counts);
  const counts = OUTCOMES.filter((outcome) => batch.counts[outcome] > 0).map((outcome) => `${batch.counts[outcome]} ${outcome}`).join(', ');
  const tenth = Math.floor(percentDone(batch) / 10);
  return { key: `${activity.label}:${tenth}`, text: `Batch ${activity.label}: ${done} of ${batch.total} rows done (${percentDone(batch)}%)${counts === '' ? '' : `: ${counts}`}.` };
}

/** How often the live part asks again: every 2 s while rows move, every 30 s for a step batch between steps. */
function pollOf(view: BatchView, announced: string): SafeHtml | '' {
  const every = view.activity.moving ? '2s' : view.activity.label === 'waiting' ? '30s' : undefined;
  if (every === undefined) return '';
  return html` hx-get="/batches/${view.batch.id}/live${rowsQuery(view.rows, announced)}" hx-trigger="every ${every}" hx-swap="outerHTML"`;
}

/**
 * Everything on the batch page that moves: actions, progress, counts, the budget, the charts, and the rows with their
 * filter counts. It asks for itself again while the batch can change (same filter) and stops once nothing will. Every
 * link in it keeps its id across refreshes, so that htmx gives keyboard focus back to the link that had it; progress
 * goes to the page's live region only when it is news.
 */
export function batchLive(view: BatchView): SafeHtml {
  const { batch, activity, budget } = view;
  const news = progressNews(view);
  const canRetry = batch.counts.failed > 0 || batch.counts.cancelled > 0 || batch.state === 'stopped';
  const canCancel = batch.state === 'queued' || batch.state === 'submitting';
  const step = stepBatchOf(batch.id);
  return html`<div id="batch-live"${pollOf(view, news.key)}>
${announcement(news.key, view.announced, news.text)}
<div class="actions">${canRetry ? html`<a class="button" id="retry-link" href="/batches/${batch.id}/retry">Retry failed rows…</a>` : ''}${canCancel && step === undefined ? html`<a class="button danger" id="cancel-link" href="/batches/${batch.id}/cancel">Cancel batch…</a>` : ''}</div>
<section class="live" aria-labelledby="progress-title">
<h2 id="progress-title" class="visually-hidden">Progress</h2>
<div class="live-grid">
  <div class="state">${activityBadge(activity)} ${progressBar(batch)}</div>
  <div>${outcomeCounts(batch)}</div>
  <dl class="facts">
    <div><dt>Started</dt><dd>${timeOf(batch.createdAt)}</dd></div>
    ${storyFacts(view.story)}
    <div><dt>Duration</dt><dd>${durationOf(batch, view.now)}</dd></div>
    ${activity.nextDueAt === undefined ? '' : html`<div><dt>Next step due</dt><dd>${timeOf(activity.nextDueAt)} <span class="muted small">${relativeTime(activity.nextDueAt, view.now)}</span></dd></div>`}
    ${budget === undefined ? '' : budgetFacts(budget)}
  </dl>
</div>
${activity.label === 'cancelling' ? html`<p class="note">Cancelled: rows that were running when it was cancelled are finishing; this page follows them to the end.</p>` : ''}
${batch.state === 'submitting' ? html`<p class="note">Batch ${STILL_SUBMITTING_NOTE}.</p>` : ''}
${activity.label === 'waiting' ? html`<p class="note">A step batch of an offboarding: its rows run on the leavers' leave dates and at the end of their holds. Nothing runs before the next step is due.</p>` : ''}
${batch.message === undefined || batch.message === '' ? '' : html`<p class="note">${batch.message}</p>`}
${batchCharts(batch, view.perSecond, budget, activity.moving ? view.now : undefined)}
</section>
${rowsTable(batch, view.rows)}
</div>`;
}

/** The whole page: what it shows at load is not news for the live region (only later changes are). */
export function batchPage(view: BatchView): SafeHtml {
  const { batch } = view;
  const step = stepBatchOf(batch.id);
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/batches">Batches</a> › ${batch.id}</nav>
<h1>${batch.source} ${simBadge(batch.sim)}</h1>
<p class="muted">Batch <span class="mono">${batch.id}</span> · target ${batch.target}${step === undefined ? '' : html` · the ${step.step} step of offboarding <a href="/offboardings/${step.workflowId}">${step.workflowId}</a>`}</p>
${batchLive({ ...view, announced: progressNews(view).key })}`;
}

/** Retry and cancel ask first, on a page of their own, so that a stray click or key press changes nothing. */
export function confirmPage(batch: BatchRecord, what: 'retry' | 'cancel', csrfToken: string): SafeHtml {
  const text =
    what === 'retry'
      ? html`Run the <strong>${batch.counts.failed}</strong> failed and <strong>${batch.counts.cancelled}</strong> cancelled rows of this batch again? Rows whose earlier attempt may have applied are checked first, never repeated blindly.`
      : html`Cancel this batch? Rows still queued end <strong>cancelled</strong>; rows already running finish. You can take it up again later with retry.`;
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/batches">Batches</a> › <a href="/batches/${batch.id}">${batch.id}</a></nav>
<section class="narrow">
<h1>${what === 'retry' ? 'Retry failed rows' : 'Cancel batch'}</h1>
<p>${batch.source} ${batch.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</p>
<p>${text}</p>
<form method="post" action="/batches/${batch.id}/${what}">
  <input type="hidden" name="_csrf" value="${csrfToken}">
  <button type="submit" class="${what === 'cancel' ? 'danger' : ''}">${what === 'retry' ? 'Yes, retry' : 'Yes, cancel the batch'}</button>
  <a class="button secondary" href="/batches/${batch.id}">No, go back</a>
</form>
</section>`;
}
