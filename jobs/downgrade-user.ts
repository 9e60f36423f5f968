import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { resolvePlanId, resolveUserId, sameSeat, seatChangeEvents, seatInPlan } from './resolve-target.js';
import { cannotInvert, invert, NOTHING_RECORDED, readSeatBefore, seatAlreadyGiven, sameUser, stateBefore, type ReversibleJobType } from './inverse-support.js';
import { seatReadingSchema } from '../src/plan/seat-reading.js';

type DowngradeAction = ActionOf<'downgrade'>;

/**
 * downgrade: move the user to a CONTRIBUTOR (formerly VIEWER) or GUEST seat in a plan, clearing admin status when the
 * row says removeAdminStatus; the client sends the seat under the name the service takes (CONTRIBUTOR from the VIEWER
 * sunset on). Confirm: list the user's plans; the seat in that plan equals the target seat (VIEWER and CONTRIBUTOR are
 * one seat, whichever name the service answers with) and, when removeAdminStatus was asked, the user is no longer
 * admin → done. The user not in that plan →
 * not-done (the call is then made and the service answers for itself).
 */
export const downgradeUserJob: ReversibleJobType<DowngradeAction> = {
  action: 'downgrade',

  async run(context) {
    const userId = await resolveUserId(context);
    const planId = await resolvePlanId(context, userId);
    await context.api.users.downgrade(userId, planId, {
      ...callOptions(context),
      seatType: context.action.seatType,
      ...(context.action.removeAdminStatus === undefined ? {} : { removeAdminStatus: context.action.removeAdminStatus }),
    });
    return succeeded({ userId, planId, seatType: context.action.seatType });
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    const planId = await resolvePlanId(context, userId);
    const seat = await seatInPlan(context.api, userId, planId, context);
    if (seat === undefined || !sameSeat(seat.seatType, context.action.seatType)) return 'not-done';
    if (context.action.removeAdminStatus !== true) return 'done';
    const user = await context.api.users.get(userId, callOptions(context));
    return user.admin === true ? 'not-done' : 'done';
  },

  // After a lost answer, the seat events of the row's plan tell what a read cannot: that this seat was given and changed
  // since by someone else. The plan must be known without a call (named in the row or found by the plan).
  reportedBy: seatChangeEvents,

  readBefore: (context) => readSeatBefore(context, context.action.removeAdminStatus === true),

  alreadyDone: (before, context) => seatAlreadyGiven(before, context.action.seatType, context.action.removeAdminStatus === true),

  /** An upgrade back to the seat the user held: MEMBER or GUEST (the seats an upgrade gives). */
  inverse(facts) {
    const before = stateBefore(facts, seatReadingSchema);
    if (before === undefined) return cannotInvert(`the seat before the downgrade is not known: ${NOTHING_RECORDED}`);
    const { planId, seatType } = before;
    if (seatType === 'MEMBER' || seatType === 'GUEST') {
      const notes = before.admin === true ? ['the downgrade also removed admin status; the revert gives the seat back, not admin status (an update row with admin=true does)'] : [];
      return invert([{ action: 'upgrade', user: sameUser(facts), planId, seatType }], notes);
    }
    if (seatType === 'PROVISIONAL_MEMBER') {
      return cannotInvert(`the user was a Provisional Member of plan ${planId}; an upgrade gives a full Member seat, not the provisional one (docs/service.md#seats)`);
    }
    return cannotInvert(seatType === undefined ? `the user held no seat in plan ${planId} before` : `the user held ${seatType} in plan ${planId} before: nothing to give back`);
  },
};
