import type { StateBefore } from './leaver-state.js';

/** Seats a downgrade can give back (docs/service.md: downgrade goes to CONTRIBUTOR, formerly VIEWER, or GUEST). */
type RestorableSeat = 'GUEST' | 'CONTRIBUTOR';

/**
 * What reactivating a leaver costs, and the seat seatflow gives back after it. The service takes the Member seat away
 * on deactivation and assigns a Member seat on reactivation (docs/service.md, seats and the lifecycle): an undo buys
 * a paid seat, whatever the user held before. Where that was lower than MEMBER, a downgrade row after the
 * reactivation restores it.
 */
export interface ReactivationSeat {
  /** For people: what the reactivation costs and what happens after it. */
  cost: string;
  /** The reactivation leaves the user on a paid seat they did not hold before (unless `restore` gives it back). */
  aboveBefore: boolean;
  /** The downgrade that restores the seat before: one plan, one seat. */
  restore?: { planId: number; seatType: RestorableSeat };
}

const RESTORABLE: Readonly<Record<string, RestorableSeat>> = { GUEST: 'GUEST', CONTRIBUTOR: 'CONTRIBUTOR', VIEWER: 'CONTRIBUTOR' };

/** From the state recorded just before the deactivation (capture-state-before.ts): seats per plan. */
export function reactivationSeatOf(before: StateBefore | undefined): ReactivationSeat {
  const seats = before?.seats.filter((seat) => seat.seatType !== undefined) ?? [];
  if (seats.length === 0) {
    return { cost: 'reactivation assigns a Member seat (paid); the seat held before was not recorded, so none is restored', aboveBefore: true };
  }
  // Reactivation assigns MEMBER in the plans the user is internal to; a seat the plan listed as external stays as it
  // was, and there is nothing to give back (soak seed 4505: a GUEST seat "given back" by a downgrade that changed nothing).
  const lower = seats.filter((seat) => seat.seatType !== 'MEMBER' && seat.isInternal !== false);
  if (lower.length === 0) {
    const external = seats.some((seat) => seat.seatType !== 'MEMBER');
    return { cost: external ? 'reactivation leaves the seat of a plan the user is external to as it was: nothing to give back' : 'reactivation assigns a Member seat (paid): the seat the user held before', aboveBefore: false };
  }
  // One downgrade row per leaver: the first plan whose seat a downgrade can give back; the rest are said, not done.
  const first = lower.find((seat) => RESTORABLE[seat.seatType ?? ''] !== undefined);
  const byHand = lower.filter((seat) => seat !== first).map((seat) => `${seat.seatType ?? '?'} in plan ${seat.planId}`);
  const handNote = byHand.length === 0 ? '' : `; ${byHand.join(', ')} cannot be given back by this undo (review by hand)`;
  if (first === undefined) return { cost: `reactivation assigns a Member seat (paid) where the user held less${handNote}`, aboveBefore: true };
  const seatType = RESTORABLE[first.seatType ?? '']!;
  return {
    cost: `reactivation assigns a Member seat (paid); the user held ${first.seatType ?? '?'} in plan ${first.planId} before, so a downgrade back to ${seatType} follows it${handNote}`,
    aboveBefore: byHand.length > 0,
    restore: { planId: first.planId, seatType },
  };
}
