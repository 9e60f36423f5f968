import type { MutationLog } from '../sim/mutation-log.js';
import type { ServerEvents } from '../webhooks/server-events.js';
import type { ServerState } from '../state/server-state.js';
import { freeSeatOf, setSeat } from './seat-lifecycle.js';

/**
 * Provisional Members that no System Admin upgraded drop to a free seat at the end of their review period, the
 * service's default since 2025-10-27 (docs/service.md#provisional-members): VIEWER (CONTRIBUTOR on the wire) for an
 * internal user, GUEST for an external one, at the seat's `provisionalExpirationDate`. The reference server applies
 * it on its own clock before it answers any request, so a test that moves the clock sees the seat expired.
 *
 * `state.nextProvisionalExpiry` is the earliest expiry that may be due, so most requests cost one comparison; the
 * users are scanned only once some expiry has passed.
 */
export function expireProvisionalSeats(state: ServerState, now: number, mutations: MutationLog, events: ServerEvents): void {
  if (now < state.nextProvisionalExpiry) return;
  let next = Number.POSITIVE_INFINITY;
  for (const user of state.users.values()) {
    for (const seat of user.seats) {
      const until = seat.provisionalExpirationDate;
      if (seat.seatType !== 'PROVISIONAL_MEMBER' || until === null) continue;
      if (until > now) {
        next = Math.min(next, until);
        continue;
      }
      setSeat(seat, freeSeatOf(seat), until);
      mutations.record({
        operation: 'provisionalSeatExpired',
        resourceType: 'user',
        resourceId: user.id,
        userId: user.id,
        summary: `${user.email} in plan ${seat.planId}: PROVISIONAL_MEMBER → ${seat.seatType} (review period ended, not upgraded)`,
      });
      // The service's own change: the event names no acting user.
      events.seatChanged(user, [seat.planId]);
    }
  }
  state.nextProvisionalExpiry = next;
}

/** Tells the expiry that a provisional seat ends at `until` (a new user, a fixture). */
export function noteProvisionalSeat(state: ServerState, until: number): void {
  state.nextProvisionalExpiry = Math.min(state.nextProvisionalExpiry, until);
}
