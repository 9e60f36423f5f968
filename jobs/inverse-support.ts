import type { z } from 'zod';
import type { Action, UserRef } from '../src/manifest/action.js';
import type { InverseFacts, JobContext, JobType, Reversible, RowInverse } from '../src/queue/job-type.js';
import { callOptions } from './job-support.js';
import type { SeatType } from '../src/contract/index.js';
import { seatReading, seatReadingSchema, type SeatReading } from '../src/plan/seat-reading.js';
import { resolvePlanId, resolveUserId, sameSeat, seatInPlan } from './resolve-target.js';

/**
 * What every job type shares to say how its rows are undone (`seatflow revert`): the answer shapes, reading the
 * recorded state before (JSON from Redis, parsed here, at the edge), and how an inverse row names the user.
 */

/** A job type that says how its rows are inverted: what jobs/registry.ts requires of each. */
export type ReversibleJobType<A extends Action> = JobType<A> & Required<Pick<Reversible<A>, 'inverse'>>;

export function invert(actions: Action[], notes: string[] = []): RowInverse {
  return notes.length === 0 ? { kind: 'actions', actions } : { kind: 'actions', actions, notes };
}

export function cannotInvert(reason: string): RowInverse {
  return { kind: 'refused', reason };
}

/** The recorded state before, as `schema` says it must look; undefined when none was recorded or it does not fit. */
export function stateBefore<T extends z.ZodType>(facts: Pick<InverseFacts, 'before'>, schema: T): z.output<T> | undefined {
  const parsed = schema.safeParse(facts.before);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The row's user as the inverse row names them: by the id the run used (ids outlive an e-mail change, e.g. a promoted
 * alternate address), with the e-mail the row named, so the plan of the revert still says whom it is about.
 */
export function sameUser(facts: Pick<InverseFacts<Extract<Action, { user: UserRef }>>, 'action' | 'target' | 'detail'>): UserRef {
  const userId = facts.target.userId ?? numberOf(facts.detail?.userId) ?? ('userId' in facts.action.user ? facts.action.user.userId : undefined);
  const email = facts.target.email ?? facts.action.user.email;
  if (userId === undefined) return { email: email! };
  return email === undefined ? { userId } : { userId, email };
}

export function numberOf(value: string | number | boolean | undefined): number | undefined {
  return typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Why a change cannot be undone when the state before it was not recorded (governance.recordStateBefore off). */
export const NOTHING_RECORDED = 'its state before was not recorded (governance.recordStateBefore was off when it ran)';

/**
 * The user's seat in the row's plan (and, when the row may take it away, their admin flag), read just before a seat
 * change. Not the pre-flight's reading: the row may run hours after it (a step, a scheduled run), and someone may have
 * changed the seat since, which the service's answer to the change would not show (alreadyDone reads it here).
 */
export async function readSeatBefore(context: JobContext<Extract<Action, { action: 'downgrade' | 'upgrade' }>>, withAdmin: boolean): Promise<SeatReading> {
  const userId = await resolveUserId(context);
  const planId = await resolvePlanId(context, userId);
  const seat = await seatInPlan(context.api, userId, planId, context);
  const admin = withAdmin ? (await context.api.users.get(userId, callOptions(context))).admin : undefined;
  return seatReading(planId, seat?.seatType, { value: admin, clearedByRow: withAdmin });
}

/**
 * A seat change's alreadyDone: the seat read before it (readSeatBefore) is already the one the row gives (and admin
 * already cleared, when the row clears it). The service answers such a change 200 and changes nothing.
 */
export function seatAlreadyGiven(before: unknown, seatType: SeatType, clearsAdmin: boolean): string | undefined {
  const read = seatReadingSchema.safeParse(before);
  if (!read.success || read.data.seatType === undefined || !sameSeat(read.data.seatType as SeatType, seatType)) return undefined;
  if (clearsAdmin && read.data.admin !== false) return undefined;
  return `already ${read.data.seatType} in plan ${read.data.planId}${clearsAdmin ? ', not admin' : ''} when the row ran (changed since the plan): nothing sent`;
}
