import { z } from 'zod';
import { InvalidRequestError } from '../src/client/api-error.js';
import type { Webhook, WebhookUpdate } from '../src/contract/index.js';
import type { ActionOf } from '../src/manifest/action.js';
import { callOptions, definedOnly, succeeded } from './job-support.js';
import { cannotInvert, invert, NOTHING_RECORDED, stateBefore, type ReversibleJobType } from './inverse-support.js';

type UpdateWebhookAction = ActionOf<'update-webhook'>;

const webhookBeforeSchema = z.object({ callbackUrl: z.string().optional(), name: z.string().optional(), enabled: z.boolean().optional() });

function changesOf(action: UpdateWebhookAction): WebhookUpdate {
  return definedOnly({ callbackUrl: action.callbackUrl, name: action.name, enabled: action.enabled });
}

/** The row's state before, from the webhook as read: by readBefore, or by a migration's plan (target.readAtPlan). */
export function webhookStateBefore(webhook: Pick<Webhook, 'callbackUrl' | 'name' | 'enabled'>): Record<string, unknown> {
  return definedOnly({ callbackUrl: webhook.callbackUrl, name: webhook.name, enabled: webhook.enabled });
}

/**
 * update-webhook: re-point a webhook (callbackUrl), rename it, or turn it on or off in one call. With `enabled: true`
 * the service verifies the callback URL before it answers; a failed verification answers 200 with the webhook left
 * disabled (DISABLED_VERIFICATION_FAILED), which this job reports as a failed row (InvalidRequest: trying again will
 * not help until the subscriber at the new URL answers the challenge).
 * Confirm: get the webhook; every requested field as asked → done.
 */
export const updateWebhookJob: ReversibleJobType<UpdateWebhookAction> = {
  action: 'update-webhook',
  repeatShows: true,

  async run(context) {
    const webhookId = context.target.webhookId ?? context.action.webhookId;
    const webhook = await context.api.webhooks.update(webhookId, changesOf(context.action), callOptions(context));
    if (context.action.enabled === true && webhook.enabled === false) {
      const why = webhook.disabledDetails === undefined ? '' : `: ${webhook.disabledDetails}`;
      throw new InvalidRequestError({
        operation: 'webhooks.update',
        message: `webhook ${webhookId} was updated but not enabled: the callback URL failed verification (status ${webhook.status ?? 'unknown'}${why}); it stays disabled`,
        detail: { status: webhook.status },
      });
    }
    return succeeded({ webhookId, ...(webhook.status === undefined ? {} : { status: webhook.status }) });
  },

  async confirm(context) {
    const webhook = await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context));
    const wanted = changesOf(context.action);
    const same = (Object.keys(wanted) as (keyof WebhookUpdate)[]).every((field) => webhook[field as keyof typeof webhook] === wanted[field]);
    return same ? 'done' : 'not-done';
  },

  async readBefore(context) {
    return webhookStateBefore(await context.api.webhooks.get(context.target.webhookId ?? context.action.webhookId, callOptions(context)));
  },

  // The URL and name back as they were, and on or off as it was (turning it on verifies the old URL again).
  inverse(facts) {
    const before = stateBefore(facts, webhookBeforeSchema);
    if (before === undefined) return cannotInvert(`the webhook before the update is not known: ${NOTHING_RECORDED}`);
    const { action } = facts;
    const restored = definedOnly({
      callbackUrl: action.callbackUrl === undefined ? undefined : before.callbackUrl,
      name: action.name === undefined ? undefined : before.name,
      enabled: action.enabled === undefined ? undefined : before.enabled,
    });
    if (Object.keys(restored).length === 0) return cannotInvert('nothing the update changed was recorded before it');
    return invert([{ action: 'update-webhook', webhookId: facts.target.webhookId ?? action.webhookId, ...restored }]);
  },
};
