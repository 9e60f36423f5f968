import type { BatchRecord } from '../../../queue/batch-store.js';
import type { BatchActivity } from '../batch-activity.js';
import { activityBadge, durationOf, outcomeCounts, progressBar, relativeTime, scrollBox, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

export interface BatchesView {
  batches: ReadonlyArray<{ batch: BatchRecord; activity: BatchActivity }>;
  now: number;
}

/**
 * The table of recent batches. While one is moving it asks for itself again every 2 s; step batches of offboardings
 * waiting for their next step do not count as moving (they may wait for weeks). Links keep their ids across
 * refreshes, so keyboard focus stays where it was.
 */
export function batchesTable(view: BatchesView): SafeHtml {
  const moving = view.batches.some(({ activity }) => activity.moving);
  const poll = moving ? html` hx-get="/batches/live" hx-trigger="every 2s" hx-swap="outerHTML"` : '';
  if (view.batches.length === 0) {
    return html`<div id="batches-live"${poll}><p>No batches yet. <a href="/plan">Plan a manifest</a> to start one.</p></div>`;
  }
  return html`<div id="batches-live"${poll}>
${scrollBox(
  'Recent batches',
  html`<table class="batches">
<caption class="visually-hidden">Recent batches, newest first</caption>
<thead><tr><th scope="col">Batch</th><th scope="col">Target</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Outcomes</th><th scope="col">Started</th><th scope="col">Duration</th></tr></thead>
<tbody>
${view.batches.map(
  ({ batch, activity }) => html`<tr>
  <th scope="row"><a id="open-${batch.id}" href="/batches/${batch.id}">${batch.source}</a><div class="muted mono">${batch.id}</div></th>
  <td>${batch.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}<div class="muted small">${batch.target}</div></td>
  <td>${activityBadge(activity)}${activity.nextDueAt === undefined ? '' : html`<div class="muted small">next step ${relativeTime(activity.nextDueAt, view.now)}</div>`}</td>
  <td>${progressBar(batch, `Rows done of ${batch.source}`)}</td>
  <td>${outcomeCounts(batch)}</td>
  <td>${timeOf(batch.createdAt)}</td>
  <td>${durationOf(batch, view.now)}</td>
</tr>`,
)}
</tbody>
</table>`,
)}
</div>`;
}

export function batchesPage(view: BatchesView): SafeHtml {
  return html`<div class="heading"><h1>Batches</h1><a class="button" href="/plan">Plan a manifest</a></div>
${batchesTable(view)}`;
}
