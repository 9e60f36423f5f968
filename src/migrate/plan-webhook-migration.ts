import { z } from 'zod';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { timestampMs, type Webhook } from '../contract/index.js';
import { countCalls } from '../plan/count-calls.js';
import type { GuardrailLimits } from '../plan/guardrails.js';
import { plural } from '../core/plural.js';
import { judgedPlan, type JudgedPlan, type WantedRow } from './judged-plan.js';
import { resourceFacts } from './resource-facts.js';
import { webhookStateBefore } from '../../jobs/update-webhook.js';

const DAY = 86_400_000;
const urlPrefix = z.string().trim().pipe(z.url({ protocol: /^https?$/, message: 'is not an http(s) URL prefix' }));

/** What a webhook migration does (`seatflow migrate webhooks`): one of three, to every webhook the token sees. */
export const webhookMigrationRequestSchema = z.discriminatedUnion('mode', [
  /** Callback URLs that start with `from` start with `to` instead; each webhook that was on is verified again. */
  z.object({ mode: z.literal('repoint'), from: urlPrefix, to: urlPrefix }),
  /** A new shared secret for every webhook, handed only to `secretsTo` (an absolute file path). */
  z.object({ mode: z.literal('rotate-secrets'), secretsTo: z.string().refine((file) => file.startsWith('/'), 'an absolute path') }),
  /** Webhooks on whose last callback is older than `days` are turned off. */
  z.object({ mode: z.literal('disable-unused'), days: z.number().int().min(1) }),
]);
export type WebhookMigrationRequest = z.output<typeof webhookMigrationRequestSchema>;

/** Statuses from which a re-pointed webhook is verified again: it was on, or it went off because its URL failed. */
const RE_ENABLE = new Set(['ENABLED', 'DISABLED_VERIFICATION_FAILED', 'DISABLED_CALLBACK_FAILED']);

export interface PlanWebhookMigrationOptions {
  api: SmartsheetApi;
  request: WebhookMigrationRequest;
  guardrails: GuardrailLimits;
  /** Now, on the service's clock (disable-unused measures ages from it). */
  nowMs: number;
}

/**
 * The plan of a webhook migration, from the webhooks the token sees (one listing), changing nothing: re-point callback
 * URLs (update-webhook rows: a webhook that was on is verified again at its new URL, one that fails stays off and is
 * reported), rotate every shared secret (reset-webhook-secret rows handing the secret to one file), or turn off the
 * webhooks no callback has reached for N days (disable-webhook rows). Judged by the pre-flight's webhook rules.
 */
export async function planWebhookMigration(options: PlanWebhookMigrationOptions): Promise<JudgedPlan> {
  const { api, calls } = countCalls(options.api);
  const webhooks = new Map<number, Webhook>();
  for await (const webhook of api.webhooks.list({ pageSize: 1000 })) webhooks.set(webhook.id, webhook);
  const sorted = [...webhooks.values()].sort((a, b) => a.id - b.id);
  const { request } = options;
  const notes: string[] = [];
  let wanted: WantedRow[];
  let title: string;
  if (request.mode === 'repoint') {
    title = `migrate webhooks: re-point ${request.from} → ${request.to}`;
    wanted = sorted.filter((webhook) => webhook.callbackUrl?.startsWith(request.from) === true).map((webhook) => repoint(webhook, request.from, request.to));
    if (wanted.length === 0) notes.push(`No webhook's callback URL starts with ${request.from}.`);
  } else if (request.mode === 'rotate-secrets') {
    title = `migrate webhooks: rotate shared secrets to ${request.secretsTo}`;
    wanted = sorted.map((webhook) => ({ action: { action: 'reset-webhook-secret', webhookId: webhook.id, secretTo: request.secretsTo }, note: `${webhook.name ?? ''}: the new secret goes to ${request.secretsTo} only`.replace(/^: /, '') }));
    notes.push(`Each subscriber must take its new secret from ${request.secretsTo} (one JSON line per webhook, the newest last): until then its signature checks fail.`);
  } else {
    title = `migrate webhooks: disable those unused for ${plural(request.days, 'day')}`;
    const since = options.nowMs - request.days * DAY;
    const unjudged: string[] = [];
    wanted = [];
    for (const webhook of sorted.filter((each) => each.enabled === true)) {
      const last = lastCallbackOf(webhook);
      if (last === undefined) {
        unjudged.push(String(webhook.id));
        continue;
      }
      if (last.at < since) wanted.push({ action: { action: 'disable-webhook', webhookId: webhook.id }, note: `${last.what} ${new Date(last.at).toISOString()}, more than ${plural(request.days, 'day')} ago` });
    }
    if (unjudged.length > 0) notes.push(`${plural(unjudged.length, 'enabled webhook')} (${unjudged.slice(0, 10).join(', ')}${unjudged.length > 10 ? ', …' : ''}) carry no callback times (stats) and no creation date: not judged, left on.`);
  }
  // A re-pointed webhook's state before (for revert) is as this listing read it while that reading stands (readAtPlan).
  const stateBefore = (action: WantedRow['action']) => {
    const webhook = action.action === 'update-webhook' ? webhooks.get(action.webhookId) : undefined;
    return webhook === undefined ? undefined : webhookStateBefore(webhook);
  };
  return judgedPlan(title, wanted, resourceFacts({ webhooks }), { apiCalls: calls(), guardrails: options.guardrails, notes, readAtMs: options.nowMs, stateBefore });
}

function repoint(webhook: Webhook, from: string, to: string): WantedRow {
  const callbackUrl = `${to}${(webhook.callbackUrl ?? '').slice(from.length)}`;
  const again = webhook.status !== undefined && RE_ENABLE.has(webhook.status);
  return {
    action: { action: 'update-webhook', webhookId: webhook.id, callbackUrl, ...(again ? { enabled: true } : {}) },
    note: `${webhook.callbackUrl ?? ''} → ${callbackUrl}${again ? '' : `; stays off (${webhook.status ?? 'status unknown'})`}`,
  };
}

/**
 * When a callback last went out to the webhook (the service's `stats`), else when it was created if no callback ever
 * did; undefined when the service says neither.
 */
function lastCallbackOf(webhook: Webhook): { at: number; what: string } | undefined {
  const attempt = timestampMs(webhook.stats?.lastCallbackAttempt) ?? timestampMs(webhook.stats?.lastSuccessfulCallback);
  if (attempt !== undefined) return { at: attempt, what: 'last callback' };
  const created = webhook.stats === undefined ? undefined : timestampMs(webhook.createdAt);
  return created === undefined ? undefined : { at: created, what: 'no callback since it was created' };
}
