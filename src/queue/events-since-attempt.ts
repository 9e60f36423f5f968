import { sameSeatType, USER_EVENT } from '../contract/index.js';

/**
 * What the service's events say about a row whose answer was lost (docs/batches.md). Reading
 * the user cannot tell "my change never landed" from "my change landed and someone undid it"; the events can: the
 * event of seatflow's own change proves it landed, and an outside change of the same attribute after the attempt says
 * someone else decided since. The queue defines what it needs here; src/events keeps the events and implements it.
 */

/** One user event seatflow handled, as kept for the rows that may have caused it. */
export interface HeardEvent {
  /** `user.deactivated`, `user.reactivated`, … */
  event: string;
  /**
   * Whose change it was (docs/events.md#whose-change): seatflow's, made by seatflow's account without a call of
   * seatflow's to explain it (its ledger note may be gone: a callback later than the window), or someone else's.
   */
  by: 'seatflow' | 'own-account' | 'outside';
  /** When the service says it happened (ISO, the service's clock). */
  at: string;
  /** The change in words, for the row's outcome (an outside change names who made it). */
  summary: string;
  /** The plan whose webhook sent it: a seat event says the seat in that plan. */
  planId?: number;
  /** For `user.seatType.updated`: the seat the user holds in `planId` now, as the service names it. */
  seatType?: string;
}

/** The events of the subscribed plan webhook, as the row processor reads them. */
export interface ChangeWitness {
  /**
   * Whether the service's events reach seatflow for this target (a subscription exists), and, given a plan, whether
   * they are that plan's: seat events come only from the webhook of the plan they happen in.
   */
  subscribed(planId?: number): Promise<boolean>;
  /**
   * The user's events taken in at or after `sinceMs` (Redis time: the clock the row's first start is on), in the
   * order the service sent them. An event that happened a moment before may be among them (a callback takes a while);
   * one that happened after never misses.
   */
  heardSince(userId: number, sinceMs: number): Promise<HeardEvent[]>;
}

/** For a job type whose change the service reports as a user event: which events are its own, which its rivals. */
export interface ReportedByEvents {
  /** The events the row's change makes the service send (a deactivation: `user.deactivated`). */
  change: readonly string[];
  /** Every event that changes the same attribute, the row's own included (the status: deactivated, reactivated, removed). */
  sameAttribute: readonly string[];
  /**
   * For a seat change: the plan and the seat the row gives. Only events of that plan concern the row, and only one
   * that gives that seat is its own (another seat set by seatflow's account is some other row's).
   */
  seat?: { planId: number; seatType: string };
}

/** The users' status: a deactivation and a reactivation decide it, and so does a removal. */
export const STATUS_EVENTS: readonly string[] = [USER_EVENT.deactivated, USER_EVENT.reactivated, USER_EVENT.removed];

/** A removal: its own event, and an addition that brings the person back (with the same id) since. */
export const REMOVAL_EVENTS: ReportedByEvents = { change: [USER_EVENT.removed], sameAttribute: [USER_EVENT.removed, USER_EVENT.added] };

/** A user's seat in a plan: an upgrade or a downgrade, and a deactivation or a reactivation that moves it, say it. */
export const SEAT_EVENTS: readonly string[] = [USER_EVENT.seatTypeUpdated];

export type EventsVerdict =
  /** seatflow's own change was reported after the attempt: it landed. `since` is an outside change after it, if any. */
  | { kind: 'landed'; own: HeardEvent; since?: HeardEvent }
  /**
   * Someone else changed the same attribute after the attempt, and no event of seatflow's change came before it
   * (a webhook's callbacks are serialized, in order: docs/service.md#events): theirs stands, the row is not sent again.
   */
  | { kind: 'changed-elsewhere'; outside: HeardEvent }
  | { kind: 'nothing-heard' };

const LIFECYCLE_EVENTS: readonly string[] = [USER_EVENT.deactivated, USER_EVENT.reactivated];

/** Judges the events of the row's user since its first attempt (oldest first). Pure. */
export function judgeEventsSinceAttempt(events: readonly HeardEvent[], reportedBy: ReportedByEvents): EventsVerdict {
  // An event of this change by seatflow's own account counts as this row's even unexplained: after a lost answer, the
  // row's own call is the likeliest maker, and taking it for someone else's would end the row `skipped` over its change.
  const { seat } = reportedBy;
  const ofThePlan = (heard: HeardEvent) => seat === undefined || heard.planId === seat.planId;
  const givesTheSeat = (heard: HeardEvent) => seat === undefined || sameSeatType(heard.seatType, seat.seatType);
  // A deactivation takes the Member seat and a reactivation gives one: the seat event sent with it (same user, same
  // instant) is that change's, not a seat row's (soak seed 6332: a downgrade whose answer was lost took the seat event
  // of another batch's deactivation for its own, and reported succeeded with no downgrade made).
  const lifecycleAt = new Set(events.filter((heard) => LIFECYCLE_EVENTS.includes(heard.event)).map((heard) => heard.at));
  const ofALifecycleChange = (heard: HeardEvent) => seat !== undefined && lifecycleAt.has(heard.at);
  const own = events.findIndex((heard) => heard.by !== 'outside' && reportedBy.change.includes(heard.event) && ofThePlan(heard) && givesTheSeat(heard) && !ofALifecycleChange(heard));
  const rival = (heard: HeardEvent) => heard.by === 'outside' && reportedBy.sameAttribute.includes(heard.event) && ofThePlan(heard);
  if (own >= 0) {
    const since = events.slice(own + 1).findLast(rival);
    return { kind: 'landed', own: events[own]!, ...(since === undefined ? {} : { since }) };
  }
  const outside = events.findLast(rival);
  return outside === undefined ? { kind: 'nothing-heard' } : { kind: 'changed-elsewhere', outside };
}

/** The outcome's message for a verdict that ends the row without sending it again. */
export function describeVerdict(verdict: Exclude<EventsVerdict, { kind: 'nothing-heard' }>): string {
  if (verdict.kind === 'landed') {
    const undone = verdict.since === undefined ? '' : `; since then ${verdict.since.summary}, outside seatflow: not done again`;
    return `done by this batch (the answer was lost; the service's ${verdict.own.event} event of ${verdict.own.at} confirms it)${undone}`;
  }
  return `${verdict.outside.summary}, outside seatflow, after this row's attempt whose answer was lost: not sent again`;
}
