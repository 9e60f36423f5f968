import { InvalidRequestError } from '../src/client/api-error.js';
import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { invert, type ReversibleJobType } from './inverse-support.js';

/**
 * enable-webhook: turn a webhook on. The service verifies the callback URL before it answers; a failed verification
 * answers 200 with the webhook still disabled (status DISABLED_VERIFICATION_FAILED), which this job reports as a
 * failed row (InvalidRequest: trying again will not help until the subscriber answers the challenge).
 * Confirm: get the webhook; enabled → done.
 */
export const enableWebhookJob: ReversibleJobType<ActionOf<'enable-webhook'>> = {
  action: 'enable-webhook',
  // The service records every update of a webhook, one that changes nothing too: a repeat would be a second change.
  repeatShows: true,

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    const webhook = await context.api.webhooks.update(webhookId, { enabled: true }, callOptions(context));
    if (webhook.enabled === false) {
      const why = webhook.disabledDetails === undefined ? '' : `: ${webhook.disabledDetails}`;
      throw new InvalidRequestError({
        operation: 'webhooks.update',
        message: `webhook ${webhookId} was not enabled (status ${webhook.status ?? 'unknown'}${why})`,
        detail: { status: webhook.status },
      });
    }
    return succeeded({ webhookId, ...(webhook.status === undefined ? {} : { status: webhook.status }) });
  },

  async confirm(context) {
    const webhook = await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
    return webhook.enabled === true ? 'done' : 'not-done';
  },

  inverse: (facts) => invert([{ action: 'disable-webhook', webhookId: facts.target.webhookId ?? facts.action.webhookId }]),
};
