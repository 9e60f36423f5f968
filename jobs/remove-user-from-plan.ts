import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, deleteOrConfirmGone } from './job-support.js';
import { resolvePlanId, resolveUserId, seatInPlan } from './resolve-target.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';

type RemoveFromPlanAction = ActionOf<'remove-from-plan'>;

/**
 * remove-from-plan: take the user out of one plan (their access to items shared within it goes too).
 * Confirm: list the user's plans; that plan is not among them → done. A user no longer found at all is a 404 and
 * fails the row: "not in the plan" is the goal, "not in the organization" is something a person should look at.
 * The plan id must come from the pre-flight or the row here: after the removal "the user's only plan" is gone.
 */
export const removeUserFromPlanJob: ReversibleJobType<RemoveFromPlanAction> = {
  action: 'remove-from-plan',

  async run(context) {
    const userId = await resolveUserId(context);
    const planId = await resolvePlanId(context, userId);
    return deleteOrConfirmGone(
      removeUserFromPlanJob,
      context,
      () => context.api.users.removeFromPlan(userId, planId, callOptions(context)),
      { userId, planId },
    );
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    const planId = context.target.planId ?? context.action.planId;
    // Without a named plan there is nothing to compare against; let run make the call.
    if (planId === undefined) return 'not-done';
    return (await seatInPlan(context.api, userId, planId, context)) === undefined ? 'done' : 'not-done';
  },

  inverse: () => cannotInvert('no action puts a user back into a plan: their seat and access to items shared within the plan went with the removal'),
};
