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

/** A seat change in words, for the mutation log: `plan 54…: MEMBER → VIEWER`. */
export type SeatMove = string;

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
    moves.push(`plan ${seat.planId}: ${before} → ${seat.seatType}`);
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
    moves.push(`plan ${seat.planId}: ${before} → MEMBER`);
  }
  return moves;
}
