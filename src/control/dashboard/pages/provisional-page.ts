import type { ProvisionalSeat } from '../../../events/provisional-tracker.js';
import { cardTable } from '../card-table.js';
import { relativeTime, timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

export interface ProvisionalView {
  seats: ProvisionalSeat[];
  now: number;
  /** A review ending within this long is marked as soon. */
  soonMs: number;
}

function whenCell(seat: ProvisionalSeat, view: ProvisionalView): SafeHtml {
  const left = Date.parse(seat.expiresAt) - view.now;
  if (left <= 0) return html`<span class="overdue">ended ${relativeTime(seat.expiresAt, view.now)}</span><div class="muted small">the service drops the seat to a free one; its event is awaited</div>`;
  return html`${relativeTime(seat.expiresAt, view.now)}${left <= view.soonMs ? html` <span class="badge">soon</span>` : ''}`;
}

/** The part of the page that moves (an event arrives): it asks for itself again every 30 s. */
export function provisionalLive(view: ProvisionalView): SafeHtml {
  const soon = view.seats.filter((seat) => {
    const left = Date.parse(seat.expiresAt) - view.now;
    return left > 0 && left <= view.soonMs;
  }).length;
  return html`<div id="provisional-live" hx-get="/provisional/live" hx-trigger="every 30s" hx-swap="outerHTML">
${view.seats.length === 0
  ? html`<p class="empty">No Provisional Member is tracked. <code>seatflow webhooks subscribe</code> reads them once and the service's events keep the list; <code>seatflow provisional --refresh</code> reads them again.</p>`
  : html`<p>${view.seats.length} Provisional Member${view.seats.length === 1 ? '' : 's'}; ${soon} review${soon === 1 ? ' ends' : 's end'} within ${Math.round(view.soonMs / 86_400_000)} days.</p>
${cardTable({
  caption: 'Provisional Members, soonest end of review first',
  className: 'provisional',
  items: view.seats,
  columns: [
    { label: 'Person', names: true, cell: (seat) => seat.email },
    { label: 'Plan', className: 'mono', cell: (seat) => seat.planId },
    { label: 'Review ends', cell: (seat) => timeOf(seat.expiresAt) },
    { label: 'In', cell: (seat) => whenCell(seat, view) },
    { label: 'Known from', cell: (seat) => html`${seat.from === 'event' ? 'an event' : 'a read of the plan'}<div class="muted small">${timeOf(seat.seenAt)}</div>` },
  ],
})}`}
</div>`;
}

/** Provisional Members and the end of their review period (docs/events.md#provisional-members). */
export function provisionalPage(view: ProvisionalView): SafeHtml {
  return html`<h1>Provisional Members</h1>
<p>At the end of the review period the service drops a Provisional Member's seat to a free one, unless a System Admin upgrades it. Upgrade the people to keep before then (an <code>upgrade</code> row in a manifest). Times are on the service's clock.</p>
${provisionalLive(view)}`;
}
