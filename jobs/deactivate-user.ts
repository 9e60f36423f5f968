import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';
import { resolveUserId } from './resolve-target.js';

/**
 * deactivate: block the user from the service. Confirm: get the user; status DEACTIVATED → done. A user who is no
 * longer found is a 404 and fails the row (deactivating someone who is not there is not "already done").
 */
export const deactivateUserJob: JobType<ActionOf<'deactivate'>> = {
  action: 'deactivate',

  async run(context) {
    const userId = await resolveUserId(context);
    await context.api.users.deactivate(userId, callOptions(context));
    return succeeded({ userId });
  },

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    return user.status === 'DEACTIVATED' ? 'done' : 'not-done';
  },
};
