import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { resolveUserId } from './resolve-target.js';
import { STATUS_EVENTS } from '../src/queue/events-since-attempt.js';
import { invert, sameUser, type ReversibleJobType } from './inverse-support.js';

/**
 * reactivate: restore a deactivated user. Confirm: get the user; a status other than DEACTIVATED → done (a status
 * the service did not report → not-done, so the call is made and the service decides).
 */
export const reactivateUserJob: ReversibleJobType<ActionOf<'reactivate'>> = {
  action: 'reactivate',

  async run(context) {
    const userId = await resolveUserId(context);
    await context.api.users.reactivate(userId, callOptions(context));
    return succeeded({ userId });
  },

  // After a lost answer, the service's events tell what a read cannot: that this change landed and was undone since.
  reportedBy: () => ({ change: ['user.reactivated'], sameAttribute: STATUS_EVENTS }),

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    return user.status !== undefined && user.status !== 'DEACTIVATED' ? 'done' : 'not-done';
  },

  inverse: (facts) => invert([{ action: 'deactivate', user: sameUser(facts) }]),
};
