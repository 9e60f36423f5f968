import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { handOverSecret } from './hand-over-secret.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';

/**
 * reset-webhook-secret: replace a webhook's shared secret. The new secret is never put in the outcome, the report or
 * a log line: it is handed to the file the row names (`secretTo`, hand-over-secret.ts), or the subscriber reads it
 * with get-webhook.
 * Confirm: impossible to decide. Nothing seatflow could read tells "reset since the batch started" (the old secret
 * was never recorded, on purpose, and the webhook has no reset time), so confirm always answers not-done, after a
 * read that fails the row if the webhook is gone. A repeat after an uncertain attempt resets once more: the secret
 * still ends up new, which is the row's purpose; a subscriber that fetched the secret in between must fetch again.
 */
export const resetWebhookSecretJob: ReversibleJobType<ActionOf<'reset-webhook-secret'>> = {
  action: 'reset-webhook-secret',

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    const { sharedSecret } = await context.api.webhooks.resetSharedSecret(webhookId, callOptions(context));
    const file = context.action.secretTo;
    if (file === undefined) return succeeded({ webhookId });
    await handOverSecret(file, { webhookId, sharedSecret, rotatedAt: new Date().toISOString(), batchId: context.batchId, row: context.row });
    return succeeded({ webhookId, secretTo: file });
  },

  async confirm(context) {
    await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
    return 'not-done';
  },

  inverse: () => cannotInvert('the old shared secret cannot be restored: the service made a new one and keeps no earlier one'),
};
