import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, deleteOrConfirmGone, isNotFound } from './job-support.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';

/**
 * delete-webhook: delete a webhook. Confirm: get the webhook; 404 → done. A webhook is addressed by its own id
 * only, so a 404 has one meaning for this token: there is no such webhook (any more). The pre-flight checked that
 * the token could see it, so "gone" is the only way it disappears from view; a 404 on the delete is `unchanged`.
 */
export const deleteWebhookJob: ReversibleJobType<ActionOf<'delete-webhook'>> = {
  action: 'delete-webhook',

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    return deleteOrConfirmGone(deleteWebhookJob, context, () => context.api.webhooks.delete(webhookId, callOptions(context)), { webhookId });
  },

  async confirm(context) {
    try {
      await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
      return 'not-done';
    } catch (error) {
      if (isNotFound(error)) return 'done';
      throw error;
    }
  },

  inverse: () => cannotInvert('a deleted webhook cannot be restored: create it again in the integration that owns it (it gets a new id and secret)'),
};
