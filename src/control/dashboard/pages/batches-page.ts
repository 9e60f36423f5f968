import type { BatchRecord } from '../../../queue/batch-store.js';
import { durationOf, isSettled, outcomeCounts, progressBar, stateBadge, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** The table of recent batches; while one is still moving, it asks for itself again every 2 s. */
export function batchesTable(batches: BatchRecord[]): SafeHtml {
  const moving = batches.some((batch) => !isSettled(batch));
  const poll = moving ? html` hx-get="/batches/live" hx-trigger="every 2s" hx-swap="outerHTML"` : '';
  if (batches.length === 0) {
    return html`<div id="batches-live"${poll}><p>No batches yet. <a href="/plan">Plan a manifest</a> to start one.</p></div>`;
  }
  return html`<div id="batches-live"${poll}>
<table class="batches">
<caption class="visually-hidden">Recent batches, newest first</caption>
<thead><tr><th scope="col">Batch</th><th scope="col">Target</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Outcomes</th><th scope="col">Started</th><th scope="col">Duration</th></tr></thead>
<tbody>
${batches.map(
  (batch) => html`<tr>
  <th scope="row"><a href="/batches/${batch.id}">${batch.source}</a><div class="muted mono">${batch.id}</div></th>
  <td>${batch.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}<div class="muted small">${batch.target}</div></td>
  <td>${stateBadge(batch)}</td>
  <td>${progressBar(batch)}</td>
  <td>${outcomeCounts(batch)}</td>
  <td>${timeOf(batch.createdAt)}</td>
  <td>${durationOf(batch)}</td>
</tr>`,
)}
</tbody>
</table>
</div>`;
}

export function batchesPage(batches: BatchRecord[]): SafeHtml {
  return html`<div class="heading"><h1>Batches</h1><a class="button" href="/plan">Plan a manifest</a></div>
${batchesTable(batches)}`;
}
