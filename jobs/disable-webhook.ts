import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, succeeded } from './job-support.js';
import { invert, type ReversibleJobType } from './inverse-support.js';

/**
 * disable-webhook: turn a webhook off (status DISABLED_BY_OWNER). Confirm: get the webhook; not enabled → done,
 * whatever the reason it is off (no callbacks go out, which is what the row asks for).
 */
export const disableWebhookJob: ReversibleJobType<ActionOf<'disable-webhook'>> = {
  action: 'disable-webhook',
  // The service records every update of a webhook, one that changes nothing too: a repeat would be a second change.
  repeatShows: true,

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    const webhook = await context.api.webhooks.update(webhookId, { enabled: false }, callOptions(context));
    return succeeded({ webhookId, ...(webhook.status === undefined ? {} : { status: webhook.status }) });
  },

  async confirm(context) {
    const webhook = await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
    return webhook.enabled === true ? 'not-done' : 'done';
  },

  // Enabling makes the service verify the callback again; the revert's row fails if the subscriber no longer answers.
  inverse: (facts) => invert([{ action: 'enable-webhook', webhookId: facts.target.webhookId ?? facts.action.webhookId }]),
};
