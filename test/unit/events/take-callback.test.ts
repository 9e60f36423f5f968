import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Callback } from '../../../src/contract/index.js';
import { createSilentLogger } from '../../../src/core/logger.js';
import { createEventKeys } from '../../../src/events/event-keys.js';
import { createSubscriptionStore, type Subscription } from '../../../src/events/subscription-store.js';
import { createCallbackIntake, type CallbackIntakeDeps } from '../../../src/events/take-callback.js';
import { resendingScript } from '../../helpers/resending-script.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const SUBSCRIPTION: Subscription = { webhookId: 42, planId: 7, callbackUrl: 'http://127.0.0.1/hooks/smartsheet', ownUserId: 1, ownEmail: 'admin@acme.example', secret: 'secret-one', createdAt: '2026-11-23T09:00:00.000Z' };

const redis = useTestRedisClient();

async function setup(over: Partial<CallbackIntakeDeps> = {}) {
  const keys = createEventKeys(redis.server.prefix(), 'sim:test');
  const subscriptions = createSubscriptionStore(redis.client, keys);
  await subscriptions.put(SUBSCRIPTION);
  const inboxed: Callback[] = [];
  const intake = createCallbackIntake({
    redis: redis.client,
    keys,
    subscriptions,
    inbox: { add: async (callback) => void inboxed.push(callback) },
    serviceNow: async () => NOW,
    toleranceMs: 300_000,
    rotationGraceMs: 600_000,
    now: () => NOW,
    logger: createSilentLogger(),
    ...over,
  });
  const counters = async () => redis.client.hgetall(keys.counters);
  return { intake, inboxed, subscriptions, keys, counters };
}

function callback(nonce: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ nonce, timestamp: '2026-11-23T09:59:59.000Z', webhookId: 42, scope: 'plan', scopeObjectId: 7, events: [{ objectType: 'user', eventType: 'deactivated', id: 5, userId: 2, timestamp: '2026-11-23T09:59:58.000Z' }], ...over });
}
const signed = (raw: string, secret = 'secret-one') => ({ 'smartsheet-hmac-sha256': createHmac('sha256', secret).update(raw).digest('hex') });

describe('the callback intake (docs/events.md#the-callback-endpoint)', () => {
  it('takes a verified callback into the inbox once, and refuses its nonce again', async () => {
    const { intake, inboxed, counters } = await setup();
    const raw = callback('n-1');
    expect(await intake.take(raw, signed(raw))).toEqual({ kind: 'taken', events: 1 });
    expect(await intake.take(raw, signed(raw))).toMatchObject({ kind: 'refused', refusal: 'replayed' });
    expect(inboxed.map((c) => c.nonce)).toEqual(['n-1']);
    expect(await counters()).toMatchObject({ taken: '1', 'refused.replayed': '1' });
  });

  it('takes a callback whose nonce SET ioredis sent again after losing its answer, and still refuses a replay', async () => {
    const { intake, inboxed, counters } = await setup({ redis: resendingScript(redis.client, 'set') });
    const raw = callback('n-11');
    expect(await intake.take(raw, signed(raw))).toEqual({ kind: 'taken', events: 1 });
    expect(await intake.take(raw, signed(raw))).toMatchObject({ kind: 'refused', refusal: 'replayed' });
    expect(inboxed.map((c) => c.nonce)).toEqual(['n-11']);
    expect(await counters()).toMatchObject({ taken: '1', 'refused.replayed': '1' });
  });

  it('refuses a bad signature and an old timestamp without keeping anything, not even the nonce', async () => {
    const { intake, inboxed } = await setup();
    const raw = callback('n-2');
    expect(await intake.take(raw, signed(raw, 'not-the-secret'))).toMatchObject({ kind: 'refused', refusal: 'signature' });
    const old = callback('n-3', { timestamp: '2026-11-23T09:50:00.000Z' });
    expect(await intake.take(old, signed(old))).toMatchObject({ kind: 'refused', refusal: 'stale' });
    expect(inboxed).toEqual([]);
    // Neither refusal used up its nonce: the genuine callback is still taken.
    expect(await intake.take(raw, signed(raw))).toMatchObject({ kind: 'taken' });
  });

  it('asks the service\'s clock again before refusing a timestamp as stale', async () => {
    let serviceNow = NOW - 86_400_000;
    const { intake } = await setup({ serviceNow: async (fresh) => (fresh ? (serviceNow = NOW) : serviceNow) });
    const raw = callback('n-4');
    expect(await intake.take(raw, signed(raw))).toMatchObject({ kind: 'taken' });
  });

  it('takes the secret before a rotation during its grace, and only then', async () => {
    let now = NOW;
    const { intake, subscriptions } = await setup({ now: () => now });
    await subscriptions.rotate('secret-two', NOW, 600_000);
    const before = callback('n-5');
    expect(await intake.take(before, signed(before, 'secret-one'))).toMatchObject({ kind: 'taken' });
    const after = callback('n-6');
    expect(await intake.take(after, signed(after, 'secret-two'))).toMatchObject({ kind: 'taken' });
    now = NOW + 600_001;
    const late = callback('n-7');
    expect(await intake.take(late, signed(late, 'secret-one'))).toMatchObject({ kind: 'refused', refusal: 'signature' });
  });

  it('adopts the secret the service holds when a signature fails (reset elsewhere), at most once per period', async () => {
    const reads: number[] = [];
    const { intake, subscriptions } = await setup({ readSecret: async (id) => (reads.push(id), 'secret-reset-elsewhere'), refreshEveryMs: 60_000 });
    const raw = callback('n-8');
    expect(await intake.take(raw, signed(raw, 'secret-reset-elsewhere'))).toMatchObject({ kind: 'taken' });
    expect((await subscriptions.get())?.secret).toBe('secret-reset-elsewhere');
    const forged = callback('n-9');
    expect(await intake.take(forged, signed(forged, 'forged'))).toMatchObject({ kind: 'refused', refusal: 'signature' });
    expect(reads).toEqual([42]);
  });

  it('forgets the nonce when the inbox cannot keep the callback, so the service\'s next delivery is taken', async () => {
    let fail = true;
    const kept: string[] = [];
    const { intake } = await setup({
      inbox: {
        add: async (c) => {
          if (fail) throw new Error('Redis went away');
          kept.push(c.nonce);
        },
      },
    });
    const raw = callback('n-10');
    await expect(intake.take(raw, signed(raw))).rejects.toThrow('Redis went away');
    fail = false;
    expect(await intake.take(raw, signed(raw))).toMatchObject({ kind: 'taken' });
    expect(kept).toEqual(['n-10']);
  });

  it('echoes the challenge of the subscribed webhook only', async () => {
    const { intake } = await setup();
    const raw = JSON.stringify({ challenge: 'c-1', webhookId: 42 });
    expect(await intake.take(raw, { 'smartsheet-hook-challenge': 'c-1', ...signed(raw) })).toEqual({ kind: 'challenge', challenge: 'c-1' });
    const other = JSON.stringify({ challenge: 'c-2', webhookId: 43 });
    expect(await intake.take(other, { 'smartsheet-hook-challenge': 'c-2' })).toMatchObject({ kind: 'refused', refusal: 'unknown-webhook' });
    expect(await intake.take(raw, { 'smartsheet-hook-challenge': 'c-1', ...signed(raw, 'forged') })).toMatchObject({ kind: 'refused', refusal: 'signature' });
  });
});
