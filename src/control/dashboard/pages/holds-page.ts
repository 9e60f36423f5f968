import { formatHold } from '../../../workflow/hold-duration.js';
import type { HoldView } from '../../../workflow/offboarding-system.js';
import type { WorkflowRecord } from '../../../workflow/workflow-store.js';
import { cardTable } from '../card-table.js';
import { relativeTime, timeOf } from '../format.js';
import { fileNameOf } from '../story-facts.js';
import { html, type SafeHtml } from '../html.js';
import { stateBadge } from '../badges.js';

/** The holds of one offboarding of this server's target. */
export interface HoldGroup {
  workflow: WorkflowRecord;
  holds: HoldView[];
}

export interface HoldsView {
  groups: HoldGroup[];
  /** Leavers on hold in offboardings of other targets (e.g. an earlier `--sim` run): not shown, undo cannot act here. */
  elsewhere: number;
  now: number;
}

export function phaseBadge(phase: string): SafeHtml {
  return stateBadge(phase);
}

/** When a step is due (in the workflow's zone), with how far off it is, and a warning when it is due and no worker took it. */
export function dueCell(next: HoldView['next'], now: number, zone?: string): SafeHtml {
  if (next === undefined) return html`—`;
  return html`${next.step} ${timeOf(next.dueAt, zone)}<div class="muted small">${relativeTime(next.dueAt, now)}</div>${next.overdue ? html`<div class="overdue">due, and no worker has taken it</div>` : ''}`;
}

export function undoUntilCell(undoUntil: string | undefined, now: number, zone?: string): SafeHtml {
  return undoUntil === undefined ? html`—` : html`${timeOf(undoUntil, zone)}<div class="muted small">${relativeTime(undoUntil, now)}</div>`;
}

function group({ workflow, holds }: HoldGroup, now: number): SafeHtml {
  const titleId = `hold-${workflow.id}`;
  const zone = workflow.timeZone;
  return html`<section class="hold-group" aria-labelledby="${titleId}">
<div class="heading"><h2 id="${titleId}"><a id="open-${workflow.id}" href="/offboardings/${workflow.id}">${fileNameOf(workflow.source)}</a> ${workflow.sim ? html`<span class="badge sim">SIMULATION</span>` : ''}</h2>
<a class="button subtle-danger" id="undo-all-${workflow.id}" href="/offboardings/${workflow.id}/undo">Undo all ${holds.length} on hold…</a></div>
<p class="muted">Offboarding <span class="mono">${workflow.id}</span> · hold ${formatHold(workflow.holdMs)} · submitted ${timeOf(workflow.createdAt, zone)} · ${workflow.total} leaver${workflow.total === 1 ? '' : 's'} in all · times in ${zone ?? 'UTC'}</p>
${cardTable({
  caption: `Leavers on hold in offboarding ${workflow.id} (${fileNameOf(workflow.source)})`,
  className: 'holds',
  items: holds,
  columns: [
    { label: 'Leaver', names: true, cell: (hold) => html`${hold.email}<div class="muted small">row ${hold.row}${hold.userId === undefined ? '' : ` · user ${hold.userId}`}</div>` },
    { label: 'Phase', cell: (hold) => phaseBadge(hold.phase) },
    { label: 'Next step', cell: (hold) => dueCell(hold.next, now, zone) },
    { label: 'Undo until', cell: (hold) => undoUntilCell(hold.undoUntil, now, zone) },
    { label: 'Action', action: true, cell: (hold) => html`<a class="button danger" id="undo-${workflow.id}-${hold.row}" href="/offboardings/${workflow.id}/undo?user=${encodeURIComponent(hold.email)}" aria-label="Undo the offboarding of ${hold.email}…">Undo…</a>` },
  ],
})}
</section>`;
}

/**
 * The part of the holds page that moves: a leaver leaves it when a step runs or undo acts, a new offboarding adds
 * some. It asks for itself again every 5 s; links keep their ids, so keyboard focus survives the refresh.
 */
export function holdsLive(view: HoldsView): SafeHtml {
  const count = view.groups.reduce((sum, g) => sum + g.holds.length, 0);
  return html`<div id="holds-live" hx-get="/holds/live" hx-trigger="every 5s" hx-swap="outerHTML">
${count === 0
  ? html`<p class="empty">Nothing is on hold: no leaver of an open offboarding can be undone now.</p>`
  : html`<p>${count} leaver${count === 1 ? '' : 's'} in ${view.groups.length} offboarding${view.groups.length === 1 ? '' : 's'}.</p>${view.groups.map((g) => group(g, view.now))}`}
${view.elsewhere === 0 ? '' : html`<p class="note">${view.elsewhere} more leaver${view.elsewhere === 1 ? ' is' : 's are'} on hold in offboardings of other targets (an earlier simulation, or another service). This server cannot undo them: use <code>seatflow undo OFFBOARDING</code> against their target.</p>`}
</div>`;
}

export function holdsPage(view: HoldsView): SafeHtml {
  return html`<h1>Holds</h1>
<p>Leavers of open offboardings whom undo can still bring back: before their leave date (<strong>scheduled</strong>), or deactivated and waiting for the removal at the end of the hold (<strong>holding</strong>). Undo cancels the removal and reactivates a user seatflow deactivated. Once the removal has started it no longer can.</p>
${holdsLive(view)}`;
}
