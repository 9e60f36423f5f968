import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, deleteOrConfirmGone } from './job-support.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';
import { findAlternateEmail, resolveAlternateEmailId, resolveUserId } from './resolve-target.js';

/**
 * delete-alternate-email: detach an address from a user. Confirm: list the user's alternate addresses; the address is
 * not among them → done. A 404 on the delete → the same check decides (gone → `unchanged`; the user missing → the
 * 404 stands and the row fails).
 */
export const deleteAlternateEmailJob: ReversibleJobType<ActionOf<'delete-alternate-email'>> = {
  action: 'delete-alternate-email',

  async run(context) {
    const userId = await resolveUserId(context);
    const alternateEmailId = await resolveAlternateEmailId(context, userId);
    return deleteOrConfirmGone(
      deleteAlternateEmailJob,
      context,
      () => context.api.alternateEmails.delete(userId, alternateEmailId, callOptions(context)),
      { userId, alternateEmailId },
    );
  },

  async confirm(context) {
    const userId = await resolveUserId(context);
    return (await findAlternateEmail(context.api, userId, context.action.alternateEmail, context)) === undefined ? 'done' : 'not-done';
  },

  inverse: () => cannotInvert('a deleted alternate address can be added again, but its owner must confirm it again before it works: not the state before'),
};
