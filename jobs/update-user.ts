import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';
import { userProfileFields } from './writable-fields.js';
import { resolveUserId } from './resolve-target.js';

type UpdateAction = ActionOf<'update'>;


/**
 * update: set names and flags. Confirm: get the user and compare every field the row sets; all equal → done.
 * A flag the service does not report (absent) counts as false, as the service treats it.
 */
export const updateUserJob: JobType<UpdateAction> = {
  action: 'update',

  async run(context) {
    const userId = await resolveUserId(context);
    await context.api.users.update(userId, userProfileFields(context.action), callOptions(context));
    return succeeded({ userId });
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    const user = await context.api.users.get(userId, callOptions(context));
    const changes = userProfileFields(context.action);
    const flagsMatch = (['admin', 'licensedSheetCreator', 'groupAdmin', 'resourceViewer'] as const).every(
      (flag) => changes[flag] === undefined || (user[flag] ?? false) === changes[flag],
    );
    const namesMatch = (['firstName', 'lastName'] as const).every((name) => changes[name] === undefined || user[name] === changes[name]);
    return flagsMatch && namesMatch ? 'done' : 'not-done';
  },
};
