import type { BatchRecord } from '../../../queue/batch-store.js';
import type { BatchActivity } from '../batch-activity.js';
import { simBadge } from '../badges.js';
import { cardTable } from '../card-table.js';
import { activityBadge, durationOf, outcomeCounts, progressBar, relativeTime, timeOf } from '../format.js';
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
${cardTable({
  caption: 'Recent batches, newest first',
  className: 'batches',
  items: view.batches,
  columns: [
    { label: 'Batch', names: true, cell: ({ batch }) => html`<a id="open-${batch.id}" href="/batches/${batch.id}">${batch.source}</a><div class="muted mono">${batch.id}</div>${simBadge(batch.sim)}` },
    { label: 'State', cell: ({ activity }) => html`${activityBadge(activity)}${activity.nextDueAt === undefined ? '' : html`<div class="muted small">next step ${relativeTime(activity.nextDueAt, view.now)}</div>`}` },
    { label: 'Progress', cell: ({ batch }) => progressBar(batch, `Rows done of ${batch.source}`) },
    { label: 'Outcomes', cell: ({ batch }) => outcomeCounts(batch) },
    { label: 'Started', cell: ({ batch }) => timeOf(batch.createdAt) },
    { label: 'Duration', cell: ({ batch }) => durationOf(batch, view.now) },
  ],
})}
</div>`;
}

export function batchesPage(view: BatchesView): SafeHtml {
  return html`<div class="heading"><h1>Batches</h1><a class="button" href="/plan">Plan a manifest</a></div>
${batchesTable(view)}
<p class="muted small">Every batch of this target's queue, job by job: the <a href="/admin/queues">queue board</a> (Bull Board, an expert view, read-only).</p>`;
}
