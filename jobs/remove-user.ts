import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, definedOnly, deleteOrConfirmGone, isNotFound } from './job-support.js';
import { resolveTransferToId, resolveUserId } from './resolve-target.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';
import { REMOVAL_EVENTS } from '../src/queue/events-since-attempt.js';

type RemoveAction = ActionOf<'remove'>;

/**
 * remove: take the user out of the organization (groups, and with transferSheets sheets, go to transferTo).
 * Confirm: get the user; 404 (no longer a user of the organization) → done; found → not-done.
 * Limit: when the user is already gone and the row asked for a transfer, whoever removed the user decided about the
 * transfer; seatflow cannot re-check sheets or groups, so the outcome is `unchanged` with `alreadyGone: true`.
 * When our own earlier attempt removed the user, the transfer was part of that same call.
 */
export const removeUserJob: ReversibleJobType<RemoveAction> = {
  action: 'remove',

  async run(context) {
    const userId = await resolveUserId(context);
    const transferTo = await resolveTransferToId(context);
    const options = {
      ...callOptions(context),
      ...definedOnly({
        transferTo,
        transferSheets: context.action.transferSheets,
        removeFromSharing: context.action.removeFromSharing,
      }),
    };
    return deleteOrConfirmGone(removeUserJob, context, () => context.api.users.remove(userId, options), { userId });
  },

  // After a lost answer, the events tell what a read of the id cannot: that the removal landed and someone added the
  // person back since (the service gives them back the same id).
  reportedBy: () => REMOVAL_EVENTS,

  async confirm(context) {
    const userId = await resolveUserId(context);
    try {
      await context.api.users.get(userId, callOptions(context));
      return 'not-done';
    } catch (error) {
      if (isNotFound(error)) return 'done';
      throw error;
    }
  },

  inverse: () =>
    cannotInvert('a removal cannot be undone: the user is no longer in the organization, their sheets and groups went to the transfer target; add them again with an add row if they should come back'),
};
