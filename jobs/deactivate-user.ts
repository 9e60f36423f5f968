import type { ActionOf } from '../src/manifest/action.js';
import { z } from 'zod';
import { callOptions, succeeded } from './job-support.js';
import { resolveUserId } from './resolve-target.js';
import { STATUS_EVENTS } from '../src/queue/events-since-attempt.js';
import { cannotInvert, invert, sameUser, stateBefore, type ReversibleJobType } from './inverse-support.js';

/** The user's seat before the deactivation: reactivation gives a Member seat (docs/service.md#seats), whatever it was. */
const seatBeforeSchema = z.object({ seatType: z.string().nullish() });

/**
 * deactivate: block the user from the service. Confirm: get the user; status DEACTIVATED → done. A user who is no
 * longer found is a 404 and fails the row (deactivating someone who is not there is not "already done").
 */
export const deactivateUserJob: ReversibleJobType<ActionOf<'deactivate'>> = {
  action: 'deactivate',

  async run(context) {
    const userId = await resolveUserId(context);
    await context.api.users.deactivate(userId, callOptions(context));
    return succeeded({ userId });
  },

  // After a lost answer, the service's events tell what a read cannot: that this change landed and was undone since.
  reportedBy: () => ({ change: ['user.deactivated'], sameAttribute: STATUS_EVENTS }),

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    return user.status === 'DEACTIVATED' ? 'done' : 'not-done';
  },

  // The seat the pre-flight read (no call): all a revert needs to know is whether reactivating gives it back.
  readBefore: async (context) => ({ seatType: context.target.seatBefore?.seatType ?? null }),

  // Within the service's reactivation window only (docs/service.md#reactivation-window): seatflow knows when it
  // deactivated the user, which the service does not tell.
  inverse(facts) {
    if (facts.nowMs - facts.changedAtMs > facts.reactivationWindowMs) {
      const days = Math.round(facts.reactivationWindowMs / 86_400_000);
      return cannotInvert(`deactivated ${new Date(facts.changedAtMs).toISOString()}, more than the service's ${days}-day reactivation window ago: the service no longer reactivates the user`);
    }
    const seat = stateBefore(facts, seatBeforeSchema)?.seatType;
    const notes = seat === undefined || seat === null || seat === 'MEMBER' ? [] : [`the service reactivates with a Member seat; before the batch the user held ${seat}: downgrade them after the revert if that seat should come back`];
    return invert([{ action: 'reactivate', user: sameUser(facts) }], notes);
  },
};
