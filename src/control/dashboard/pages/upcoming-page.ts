import type { UpcomingChange } from '../../../sync/hr-workflows.js';
import { cardTable } from '../card-table.js';
import { relativeTime, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { stateBadge } from '../badges.js';
import { phaseBadge } from './holds-page.js';

export interface UpcomingView {
  changes: UpcomingChange[];
  now: number;
}

/** What each step does, for people. */
const STEP_WORDS: Readonly<Record<string, string>> = {
  join: 'joins: added (or reactivated), then given their seat',
  move: 'moves: seat changed for the new department or title',
  deactivate: 'leaves: deactivated',
  remove: 'hold ends: removed, sheets and groups transferred',
  reactivate: 'undone: reactivated',
};

const KIND_WORDS = { joiner: 'Joiner', mover: 'Mover', leaver: 'Leaver' } as const;

/** The workflow a change belongs to: an offboarding has a page; a joiners or movers workflow is named for the CLI. */
function workflowCell(change: UpcomingChange): SafeHtml {
  return change.kind === 'leaver'
    ? html`<a href="/offboardings/${change.workflowId}">${change.workflowId}</a>`
    : html`<span class="mono">${change.workflowId}</span><div class="muted small">seatflow status ${change.workflowId}</div>`;
}

function dayTable(day: string, changes: readonly UpcomingChange[], now: number): SafeHtml {
  const titleId = `day-${day}`;
  return html`<section class="upcoming-day" aria-labelledby="${titleId}">
<h2 id="${titleId}">${day}</h2>
${cardTable({
  caption: `Steps due on ${day} (UTC), in time order`,
  className: 'upcoming',
  items: changes,
  columns: [
    { label: 'Person', names: true, cell: (change) => change.email },
    { label: 'Kind', cell: (change) => stateBadge(change.kind, KIND_WORDS[change.kind]) },
    { label: 'What happens', cell: (change) => STEP_WORDS[change.step] ?? change.step },
    { label: 'When', cell: (change) => html`${timeOf(change.dueAt)}<div class="muted small">${relativeTime(change.dueAt, now)}</div>${change.due && change.job !== 'running' && change.job !== 'row-queued' ? html`<div class="overdue">due: a worker takes it</div>` : ''}` },
    { label: 'Phase', cell: (change) => phaseBadge(change.phase) },
    { label: 'Workflow', cell: (change) => workflowCell(change) },
  ],
})}
</section>`;
}

/**
 * The part of the page that moves (a step runs, a sync adds people): it asks for itself again every 10 s. One table
 * per day (UTC), each step in time order.
 */
export function upcomingLive(view: UpcomingView): SafeHtml {
  const byDay = new Map<string, UpcomingChange[]>();
  for (const change of view.changes) byDay.set(change.dueAt.slice(0, 10), [...(byDay.get(change.dueAt.slice(0, 10)) ?? []), change]);
  const count = (kind: UpcomingChange['kind']) => new Set(view.changes.filter((change) => change.kind === kind).map((change) => `${change.workflowId} ${change.email}`)).size;
  return html`<div id="upcoming-live" hx-get="/upcoming/live" hx-trigger="every 10s" hx-swap="outerHTML">
${view.changes.length === 0
  ? html`<p class="empty">Nothing to come: no joiner, mover or leaver has a step waiting.</p>`
  : html`<p>${count('joiner')} joiner${count('joiner') === 1 ? '' : 's'}, ${count('mover')} mover${count('mover') === 1 ? '' : 's'} and ${count('leaver')} leaver${count('leaver') === 1 ? '' : 's'} with a step to come, over ${byDay.size} day${byDay.size === 1 ? '' : 's'}.</p>${[...byDay].map(([day, changes]) => dayTable(day, changes, view.now))}`}
</div>`;
}

export function upcomingPage(view: UpcomingView): SafeHtml {
  return html`<h1>Joiners, movers and leavers</h1>
<p>What is to come, by date on the service's clock: joiners added on their start date, movers given the seat of their new department or title on the effective date, leavers deactivated on their leave date and removed at the end of their hold. <code>seatflow sync</code> plans them from the HR export; until a step runs, <code>seatflow undo WORKFLOW --user EMAIL</code> stops it (a leaver on hold: <a href="/holds">undo before the removal</a>).</p>
${upcomingLive(view)}`;
}
