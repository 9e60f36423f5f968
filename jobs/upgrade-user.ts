import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { resolvePlanId, resolveUserId, sameSeat, seatChangeEvents, seatInPlan } from './resolve-target.js';
import { cannotInvert, invert, NOTHING_RECORDED, readSeatBefore, seatAlreadyGiven, sameUser, stateBefore, type ReversibleJobType } from './inverse-support.js';
import { seatReadingSchema } from '../src/plan/seat-reading.js';

/**
 * upgrade: move the user to a MEMBER or GUEST seat in a plan. Confirm: list the user's plans; the seat in that plan
 * equals the target seat → done.
 */
export const upgradeUserJob: ReversibleJobType<ActionOf<'upgrade'>> = {
  action: 'upgrade',

  async run(context) {
    const userId = await resolveUserId(context);
    const planId = await resolvePlanId(context, userId);
    await context.api.users.upgrade(userId, planId, { ...callOptions(context), seatType: context.action.seatType });
    return succeeded({ userId, planId, seatType: context.action.seatType });
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    const planId = await resolvePlanId(context, userId);
    const seat = await seatInPlan(context.api, userId, planId, context);
    return seat !== undefined && sameSeat(seat.seatType, context.action.seatType) ? 'done' : 'not-done';
  },

  // After a lost answer, the seat events of the row's plan tell what a read cannot: that this seat was given and changed
  // since by someone else. The plan must be known without a call (named in the row or found by the plan).
  reportedBy: seatChangeEvents,

  readBefore: (context) => readSeatBefore(context, false),

  alreadyDone: (before, context) => seatAlreadyGiven(before, context.action.seatType, false),

  /** A downgrade back to the seat the user held: CONTRIBUTOR (VIEWER's new name) or GUEST. */
  inverse(facts) {
    const before = stateBefore(facts, seatReadingSchema);
    if (before === undefined) return cannotInvert(`the seat before the upgrade is not known: ${NOTHING_RECORDED}`);
    const { planId, seatType } = before;
    if (seatType === 'CONTRIBUTOR' || seatType === 'VIEWER' || seatType === 'GUEST') {
      return invert([{ action: 'downgrade', user: sameUser(facts), planId, seatType: seatType === 'GUEST' ? 'GUEST' : 'CONTRIBUTOR' }]);
    }
    return cannotInvert(seatType === undefined ? `the user held no seat in plan ${planId} before, and no action takes a seat away into none but remove-from-plan, which ends their access to the plan` : `the user held ${seatType} in plan ${planId} before, which a downgrade cannot give`);
  },
};
