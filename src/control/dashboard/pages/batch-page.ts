import type { BatchRecord } from '../../../queue/batch-store.js';
import { OUTCOMES, type Outcome, type RowOutcome } from '../../../queue/row-outcome.js';
import { durationOf, isSettled, outcomeCounts, progressBar, stateBadge, timeOf } from '../format.js';
import type { BudgetRates } from '../budget-sampler.js';
import { html, type SafeHtml } from '../html.js';

/** The request budget as the batch page shows it; absent when the server has no budget for the target. */
export interface BudgetView extends BudgetRates {
  allowedPerMinute: number;
}

function callsLine(budget: BudgetView): SafeHtml {
  if (budget.windowMs < 1000) return html`— (measuring) · limit ${Math.floor(budget.allowedPerMinute)} / min`;
  const seconds = Math.round(budget.windowMs / 1000);
  return html`${budget.callsInWindow} in the last ${seconds} s · limit ${Math.floor(budget.allowedPerMinute)} / min`;
}

export interface RowsView {
  filter: Outcome | undefined;
  rows: RowOutcome[];
  /** Rows matching the filter beyond the ones shown. */
  more: boolean;
  offset: number;
}

function rowsTable(batch: BatchRecord, view: RowsView): SafeHtml {
  const filters: Array<{ label: string; value: Outcome | undefined }> = [{ label: 'All', value: undefined }, ...OUTCOMES.map((outcome) => ({ label: outcome, value: outcome }))];
  return html`<section aria-labelledby="rows-title">
<div class="heading"><h2 id="rows-title">Rows</h2>
<p class="downloads">Report: <a href="/batches/${batch.id}/report.csv" download>CSV</a> · <a href="/batches/${batch.id}/report.jsonl" download>JSON Lines</a></p></div>
<nav aria-label="Filter rows by outcome"><ul class="filters">${filters.map(
    (filter) =>
      html`<li><a href="/batches/${batch.id}${filter.value === undefined ? '' : `?outcome=${filter.value}`}"${filter.value === view.filter ? html` aria-current="true"` : ''}>${filter.label}${filter.value === undefined ? '' : html` (${batch.counts[filter.value]})`}</a></li>`,
  )}</ul></nav>
${view.rows.length === 0
  ? html`<p>No rows ${view.filter === undefined ? 'have an outcome yet' : html`ended <strong>${view.filter}</strong>`}.</p>`
  : html`<table class="rows">
<caption class="visually-hidden">Rows of the batch${view.filter === undefined ? '' : ` that ended ${view.filter}`}</caption>
<thead><tr><th scope="col">Row</th><th scope="col">Action</th><th scope="col">User or subject</th><th scope="col">Outcome</th><th scope="col">Category</th><th scope="col">HTTP</th><th scope="col">Code</th><th scope="col">Message</th><th scope="col">Attempts</th></tr></thead>
<tbody>${view.rows.map(
      (row) => html`<tr>
<td>${row.row}<div class="muted small">line ${row.line}</div></td><td>${row.action}</td><td>${row.email ?? row.subject ?? (row.userId === undefined ? '—' : `user ${row.userId}`)}</td>
<td><span class="badge outcome-${row.outcome}">${row.outcome}</span></td><td>${row.category ?? ''}${row.rule === undefined ? '' : html`<div class="muted small">${row.rule}</div>`}</td>
<td>${row.status ?? ''}</td><td>${row.errorCode ?? ''}</td><td class="message">${row.message ?? ''}</td><td>${row.attempts}</td></tr>`,
    )}</tbody></table>
${view.more ? html`<p><a href="/batches/${batch.id}${rowsQuery({ filter: view.filter, offset: view.offset + view.rows.length })}">Next rows</a></p>` : ''}`}
</section>`;
}

/** The query of a rows view, for links and for the live part's own URL. */
function rowsQuery(view: Pick<RowsView, 'filter' | 'offset'>): string {
  const params = new URLSearchParams();
  if (view.filter !== undefined) params.set('outcome', view.filter);
  if (view.offset > 0) params.set('offset', String(view.offset));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Everything on the batch page that moves: actions, progress, counts, calls against the budget, 429 pauses, and the
 * rows with their filter counts. While the batch runs it asks for itself again every 2 s (same filter), and stops
 * once the batch is settled.
 */
export function batchLive(batch: BatchRecord, budget: BudgetView | undefined, rows: RowsView): SafeHtml {
  const poll = isSettled(batch) ? '' : html` hx-get="/batches/${batch.id}/live${rowsQuery(rows)}" hx-trigger="every 2s" hx-swap="outerHTML"`;
  const canRetry = batch.counts.failed > 0 || batch.counts.cancelled > 0 || batch.state === 'stopped';
  const canCancel = !isSettled(batch);
  return html`<div id="batch-live"${poll}>
<div class="actions">${canRetry ? html`<a class="button" href="/batches/${batch.id}/retry">Retry failed rows…</a>` : ''}${canCancel ? html`<a class="button danger" href="/batches/${batch.id}/cancel">Cancel batch…</a>` : ''}</div>
<section class="live" aria-labelledby="progress-title">
<h2 id="progress-title" class="visually-hidden">Progress</h2>
<div class="live-grid">
  <div>${stateBadge(batch)} ${progressBar(batch)}</div>
  <div>${outcomeCounts(batch)}</div>
  <dl class="facts">
    <div><dt>Started</dt><dd>${timeOf(batch.createdAt)}</dd></div>
    <div><dt>Duration</dt><dd>${durationOf(batch)}</dd></div>
    ${budget === undefined
      ? ''
      : html`<div><dt>API calls (fleet, this token)</dt><dd>${callsLine(budget)}</dd></div>
    <div><dt>429 pauses</dt><dd>${budget.rateLimitedInWindow} recently, ${budget.rateLimitedTotal} in all${budget.pausedForMs > 0 ? html` — <strong>paused for ${Math.ceil(budget.pausedForMs / 1000)} s</strong>` : ''}</dd></div>`}
  </dl>
</div>
${batch.message === undefined || batch.message === '' ? '' : html`<p class="note">${batch.message}</p>`}
</section>
${rowsTable(batch, rows)}
</div>`;
}

export function batchPage(batch: BatchRecord, budget: BudgetView | undefined, rows: RowsView): SafeHtml {
  return html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/batches">Batches</a> › ${batch.id}</nav>
<h1>${batch.source} ${batch.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</h1>
<p class="muted">Batch <span class="mono">${batch.id}</span> · target ${batch.target}</p>
${batchLive(batch, budget, rows)}`;
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
