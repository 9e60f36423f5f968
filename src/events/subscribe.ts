import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Webhook } from '../contract/index.js';
import { ResourceNotFoundError } from '../client/api-error.js';
import { UsageError } from '../core/seatflow-error.js';
import { plansOfUser } from '../plan/plans-of-user.js';
import type { ProvisionalTracker } from './provisional-tracker.js';
import type { Subscription, SubscriptionStore } from './subscription-store.js';

/** The plan events seatflow subscribes to: every user event, current and future. */
export const SUBSCRIBED_EVENTS = ['user.*'];

export interface SubscribeOptions {
  api: SmartsheetApi;
  store: SubscriptionStore;
  provisional: Pick<ProvisionalTracker, 'replace'>;
  callbackUrl: string;
  /** Default: the only plan of the account (several are refused: say which). */
  planId?: number;
  /** Names the webhook, so people see whose it is in the service's list. */
  name: string;
  now(): number;
}

export interface SubscribeResult {
  subscription: Subscription;
  webhook: Webhook;
  /** False when an enabled subscription to the same URL and plan was there already (nothing was changed). */
  created: boolean;
  provisionalMembers: number;
}

/**
 * `seatflow webhooks subscribe` (docs/events.md#subscribing): creates the plan webhook pointing at `seatflow serve`'s
 * callback endpoint, keeps its shared secret before enabling it (the endpoint answers the verification challenge
 * from it), enables it (the service verifies the endpoint first), and reads the plan's Provisional Members to track
 * from then on. Safe to repeat: an enabled subscription to the same plan and URL is kept; a disabled one is enabled
 * again; one to another URL or plan is replaced (its webhook deleted).
 */
export async function subscribe(options: SubscribeOptions): Promise<SubscribeResult> {
  const { api, store } = options;
  const me = await api.users.getCurrent();
  if (me.admin !== true) throw new UsageError(`${me.email} is not a System Admin: plan webhooks need one`, 'Use the access token of a System Admin (SMARTSHEET_ACCESS_TOKEN).');
  const planId = options.planId ?? (await onlyPlanOf(api, me.id));
  const existing = await store.get();
  if (existing !== undefined) {
    const webhook = await api.webhooks.get(existing.webhookId).catch(goneIsUndefined);
    if (webhook !== undefined && existing.planId === planId && existing.callbackUrl === options.callbackUrl) {
      const enabled = webhook.enabled === true ? webhook : await enable(api, existing.webhookId, options.callbackUrl);
      return { subscription: existing, webhook: enabled, created: false, provisionalMembers: await seed(options, planId) };
    }
    // Another plan or URL: the old webhook goes, so the service does not call two endpoints.
    if (webhook !== undefined) await api.webhooks.delete(existing.webhookId);
    await store.remove();
  }
  const created = await api.webhooks.create({ name: options.name, callbackUrl: options.callbackUrl, scope: 'plan', scopeObjectId: planId, events: SUBSCRIBED_EVENTS, version: 1 });
  if (created.sharedSecret === undefined) throw new Error('the service created the webhook without its shared secret');
  const subscription: Subscription = {
    webhookId: created.id,
    planId,
    callbackUrl: options.callbackUrl,
    ownUserId: me.id,
    ownEmail: me.email.toLowerCase(),
    secret: created.sharedSecret,
    createdAt: new Date(options.now()).toISOString(),
  };
  // Kept before enabling: the endpoint answers the challenge of this webhook only.
  await store.put(subscription);
  const webhook = await enable(api, created.id, options.callbackUrl);
  return { subscription, webhook, created: true, provisionalMembers: await seed(options, planId) };
}

async function enable(api: SmartsheetApi, webhookId: number, callbackUrl: string): Promise<Webhook> {
  const webhook = await api.webhooks.update(webhookId, { enabled: true });
  if (webhook.enabled !== true) {
    throw new UsageError(
      `the service could not verify the callback endpoint ${callbackUrl}: ${webhook.status ?? 'not enabled'}${webhook.disabledDetails === undefined ? '' : ` (${webhook.disabledDetails})`}`,
      'Start `seatflow serve` first (it answers the verification), and check that the service reaches it at that URL (config events.callbackUrl or --url); then subscribe again.',
    );
  }
  return webhook;
}

/** The plan's Provisional Members, read once (a seat-type filter: one call per 2000 of them), tracked from then on. */
async function seed(options: SubscribeOptions, planId: number): Promise<number> {
  const users = [];
  for await (const user of options.api.users.list({ planId, seatType: 'PROVISIONAL_MEMBER' })) users.push(user);
  return options.provisional.replace(users, planId, options.now());
}

async function onlyPlanOf(api: SmartsheetApi, userId: number): Promise<number> {
  const plans = await plansOfUser(api, userId);
  if (plans.length === 1 && plans[0] !== undefined) return plans[0].planId;
  throw new UsageError(`the account is in ${plans.length} plans (${plans.map((plan) => plan.planId).join(', ')}): say which to subscribe to`, 'Add --plan PLAN_ID.');
}

/**
 * `seatflow webhooks rotate`: resets the shared secret and keeps the new one; callbacks signed with the old one (sent
 * before the reset) are still taken for the grace period, and one signed with the new one before it is kept is
 * refused and delivered again by the service: no event is lost.
 */
export async function rotateSecret(api: SmartsheetApi, store: SubscriptionStore, now: () => number, graceMs: number): Promise<Subscription> {
  const current = await store.get();
  if (current === undefined) throw new UsageError('there is no subscription to rotate', 'Subscribe first: seatflow webhooks subscribe');
  const { sharedSecret } = await api.webhooks.resetSharedSecret(current.webhookId);
  return store.rotate(sharedSecret, now(), graceMs);
}

/** `seatflow webhooks unsubscribe`: deletes the webhook and forgets the subscription. */
export async function unsubscribe(api: SmartsheetApi, store: SubscriptionStore): Promise<Subscription | undefined> {
  const current = await store.get();
  if (current === undefined) return undefined;
  // Gone already (deleted in the service): nothing left to delete.
  await api.webhooks.delete(current.webhookId).catch(goneIsUndefined);
  await store.remove();
  return current;
}

/** A webhook the service no longer has (deleted elsewhere) reads as none; any other error is thrown. */
function goneIsUndefined(error: unknown): undefined {
  if (error instanceof ResourceNotFoundError) return undefined;
  throw error;
}
