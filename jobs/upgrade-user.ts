import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';
import { resolvePlanId, resolveUserId, sameSeat, seatInPlan } from './resolve-target.js';

/**
 * upgrade: move the user to a MEMBER or GUEST seat in a plan. Confirm: list the user's plans; the seat in that plan
 * equals the target seat → done.
 */
export const upgradeUserJob: JobType<ActionOf<'upgrade'>> = {
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
};
