import type { PlanSeat, UserRecord } from '../state/records.js';

type StoredSeat = PlanSeat['seatType'];

/** The free seat a paid or provisional seat falls back to: VIEWER (CONTRIBUTOR on the wire) inside, GUEST outside. */
export function freeSeatOf(seat: Pick<PlanSeat, 'isInternal'>): StoredSeat {
  return seat.isInternal ? 'VIEWER' : 'GUEST';
}

const HOLDS_MEMBER_SEAT: ReadonlySet<StoredSeat> = new Set(['MEMBER', 'PROVISIONAL_MEMBER']);

/** Sets a seat's type and the fields the service keeps with it; `at` is when, by the server's clock. */
export function setSeat(seat: PlanSeat, seatType: StoredSeat, at: number, provisionalUntil: number | null = null): void {
  seat.seatType = seatType;
  seat.seatTypeLastChangedAt = at;
  seat.provisionalExpirationDate = seatType === 'PROVISIONAL_MEMBER' ? provisionalUntil : null;
}

/** One seat that changed type: which plan, from what, to what (the mutation log's words, the webhook events). */
export interface SeatMove {
  planId: number;
  from: StoredSeat;
  to: StoredSeat;
}

/** `; plan 54…: MEMBER → VIEWER; …` for a mutation's summary, or nothing when no seat moved. */
export function describeMoves(moves: readonly SeatMove[]): string {
  return moves.map((move) => `; plan ${move.planId}: ${move.from} → ${move.to}`).join('');
}

/**
 * Deactivation takes the Member seat away (docs/service.md#seats-follow-the-lifecycle): every MEMBER or
 * PROVISIONAL_MEMBER seat of the user falls back to the free seat. Returns what moved.
 */
export function takeMemberSeats(user: UserRecord, at: number): SeatMove[] {
  const moves: SeatMove[] = [];
  for (const seat of user.seats) {
    if (!HOLDS_MEMBER_SEAT.has(seat.seatType)) continue;
    const before = seat.seatType;
    setSeat(seat, freeSeatOf(seat), at);
    moves.push({ planId: seat.planId, from: before, to: seat.seatType });
  }
  return moves;
}

/**
 * Reactivation assigns a Member seat (docs/service.md#seats-follow-the-lifecycle): in every plan the user is internal
 * to (the plans that can deactivate and reactivate them), whatever the seat was before. Returns what moved.
 */
export function assignMemberSeats(user: UserRecord, at: number): SeatMove[] {
  const moves: SeatMove[] = [];
  for (const seat of user.seats) {
    if (!seat.isInternal || seat.seatType === 'MEMBER') continue;
    const before = seat.seatType;
    setSeat(seat, 'MEMBER', at);
    moves.push({ planId: seat.planId, from: before, to: 'MEMBER' });
  }
  return moves;
}
