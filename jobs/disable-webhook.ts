import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';

/**
 * disable-webhook: turn a webhook off (status DISABLED_BY_OWNER). Confirm: get the webhook; not enabled → done,
 * whatever the reason it is off (no callbacks go out, which is what the row asks for).
 */
export const disableWebhookJob: JobType<ActionOf<'disable-webhook'>> = {
  action: 'disable-webhook',

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    const webhook = await context.api.webhooks.update(webhookId, { enabled: false }, callOptions(context));
    return succeeded({ webhookId, ...(webhook.status === undefined ? {} : { status: webhook.status }) });
  },

  async confirm(context) {
    const webhook = await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
    return webhook.enabled === true ? 'not-done' : 'done';
  },
};
