import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { callbackSchema } from '../../../src/contract/index.js';
import { DEMO } from '../../../src/server/index.js';
import { startCallbackSubscriber, type CallbackSubscriber } from '../../helpers/callback-subscriber.js';
import { createTestServer, type TestServer } from './sim-client.js';

const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

describe('webhook callbacks of the reference server (docs/reference-server.md#callbacks)', () => {
  let sim: TestServer;
  let subscriber: CallbackSubscriber | undefined;
  afterEach(async () => {
    await sim.app.close();
    await subscriber?.close();
    subscriber = undefined;
  });

  async function planWebhook(url: string, events: string[] = ['*.*'], extra: Record<string, unknown> = {}): Promise<{ id: number; sharedSecret: string }> {
    const created = (await sim.call('POST', '/webhooks', { body: { name: 'seats', callbackUrl: url, scope: 'plan', scopeObjectId: DEMO.planId, events, version: 1, ...extra } })).body.result as { id: number; sharedSecret: string };
    const enabled = await sim.call('PUT', `/webhooks/${created.id}`, { body: { enabled: true } });
    expect(enabled.body.result).toMatchObject({ status: 'ENABLED' });
    return created;
  }

  it('sends a signed batch of user events for a deactivation: who, what, when, and the seat it took', async () => {
    // Past the VIEWER sunset: the free seat is reported as CONTRIBUTOR. Short retries: the demo's own plan webhook
    // (an internet URL) fails and is soon disabled, so idle() comes.
    sim = createTestServer({ callbackDebounceMs: 10, callbackRetryDelaysMs: [10], now: '2026-11-23T09:00:00Z' });
    subscriber = await startCallbackSubscriber();
    const hook = await planWebhook(subscriber.url, ['*.*'], { customHeaders: { 'x-acme': 'seats' } });
    const jordan = sim.userId('jordan.lee@acme.example');
    await sim.call('POST', `/users/${jordan}/deactivate`, { headers: { 'smartsheet-change-agent': 'seatflow-test' } });
    const [callback] = await subscriber.waitFor(1);
    expect(callback!.headers['smartsheet-hmac-sha256']).toBe(sign(hook.sharedSecret, callback!.raw));
    expect(callback!.headers['x-acme']).toBe('seats');
    expect(callbackSchema.parse(JSON.parse(callback!.raw))).toMatchObject({ webhookId: hook.id, scope: 'plan', scopeObjectId: DEMO.planId });
    const admin = sim.userId('admin@acme.example');
    expect(callback!.body.events).toEqual([
      expect.objectContaining({ objectType: 'user', eventType: 'deactivated', id: jordan, userId: admin, changeAgent: 'seatflow-test', email: 'jordan.lee@acme.example', isInternal: true }),
      expect.objectContaining({ objectType: 'user', eventType: 'seatType.updated', id: jordan, userId: admin, seatType: 'CONTRIBUTOR', provisionalExpirationDate: null }),
    ]);
    expect(typeof callback!.body.nonce).toBe('string');
    await sim.callbacks.idle();
    const stats = (await sim.call('GET', `/webhooks/${hook.id}`)).body.stats as Record<string, unknown>;
    expect(stats).toMatchObject({ lastCallbackAttemptRetryCount: 0 });
    expect(stats.lastSuccessfulCallback).toBe(stats.lastCallbackAttempt);
  });

  it('sends an Admin Center change through /_sim/outside-change with the admin who made it, and logs it so', async () => {
    sim = createTestServer({ callbackDebounceMs: 10 });
    subscriber = await startCallbackSubscriber();
    await planWebhook(subscriber.url, ['user.seatType.*']);
    const riley = sim.userId('riley.owens@acme.example');
    const res = await sim.call('POST', '/_sim/outside-change', { body: { user: 'marcus.chen@acme.example', change: 'seat', seatType: 'PROVISIONAL_MEMBER', provisionalDays: 10 } });
    expect(res.body).toMatchObject({ changed: true, mutation: { via: 'admin-center', actorId: sim.userId('elena.garcia@acme.example') } });
    await sim.call('POST', '/_sim/outside-change', { body: { via: 'identity-provider', user: riley, change: 'deactivate' } });
    const events = await subscriber.waitForEvents(2);
    // The filter user.seatType.* lets seat changes through, not the deactivation itself.
    expect(events.map((e) => e.eventType)).toEqual(['seatType.updated', 'seatType.updated']);
    expect(events[0]).toMatchObject({ id: sim.userId('marcus.chen@acme.example'), userId: sim.userId('elena.garcia@acme.example'), seatType: 'PROVISIONAL_MEMBER' });
    expect(Date.parse(events[0]!.provisionalExpirationDate!) - Date.parse(events[0]!.timestamp)).toBeGreaterThan(9 * 86_400_000);
    // An identity provider names nobody.
    expect(events[1]).not.toHaveProperty('userId');
    const logged = (await sim.call('GET', `/_sim/mutations?userId=${riley}`)).body.data as { via: string; actorId?: number }[];
    expect(logged.at(-1)).toEqual(expect.objectContaining({ via: 'identity-provider' }));
    expect(logged.at(-1)).not.toHaveProperty('actorId');
  });

  it('retries a failed callback with backoff, events arriving meanwhile joining it, and counts the retries in stats', async () => {
    sim = createTestServer({ callbackDebounceMs: 10, callbackRetryDelaysMs: [30, 30, 30] });
    subscriber = await startCallbackSubscriber((attempt) => (attempt < 2 ? 503 : 200));
    const hook = await planWebhook(subscriber.url);
    await sim.call('POST', `/users/${sim.userId('jordan.lee@acme.example')}/deactivate`);
    await subscriber.waitFor(1);
    await sim.callbacks.idle();
    expect(subscriber.attempts.length).toBe(3);
    // Each attempt is its own delivery: its own nonce, the same events.
    expect(new Set(subscriber.attempts.map((a) => a.body.nonce)).size).toBe(3);
    expect(subscriber.attempts.map((a) => a.body.events)).toEqual([subscriber.attempts[2]!.body.events, subscriber.attempts[2]!.body.events, subscriber.attempts[2]!.body.events]);
    expect((await sim.call('GET', `/webhooks/${hook.id}`)).body).toMatchObject({ status: 'ENABLED', stats: { lastCallbackAttemptRetryCount: 2 } });
  });

  it('disables the webhook after the last retry, with disabledDetails, and sends nothing more', async () => {
    sim = createTestServer({ callbackDebounceMs: 10, callbackRetryDelaysMs: [20, 20] });
    subscriber = await startCallbackSubscriber(() => 500);
    const hook = await planWebhook(subscriber.url);
    await sim.call('POST', `/users/${sim.userId('jordan.lee@acme.example')}/deactivate`);
    await sim.callbacks.idle();
    const view = (await sim.call('GET', `/webhooks/${hook.id}`)).body;
    expect(view).toMatchObject({ enabled: false, status: 'DISABLED_CALLBACK_FAILED' });
    expect(view.disabledDetails).toMatch(/3 times.*HTTP 500/);
    await sim.call('POST', `/users/${sim.userId('jordan.lee@acme.example')}/reactivate`);
    await sim.callbacks.idle();
    expect(subscriber.attempts.length).toBe(3);
  });

  it('signs the next callback with a reset shared secret', async () => {
    sim = createTestServer({ callbackDebounceMs: 10 });
    subscriber = await startCallbackSubscriber();
    const hook = await planWebhook(subscriber.url);
    const fresh = ((await sim.call('POST', `/webhooks/${hook.id}/resetsharedsecret`)).body.result as { sharedSecret: string }).sharedSecret;
    await sim.call('POST', `/users/${sim.userId('jordan.lee@acme.example')}/deactivate`);
    const [callback] = await subscriber.waitFor(1);
    expect(callback!.headers['smartsheet-hmac-sha256']).toBe(sign(fresh, callback!.raw));
  });

  it('calls only loopback URLs: another URL fails without a call and ends disabled', async () => {
    sim = createTestServer({ callbackDebounceMs: 10, callbackRetryDelaysMs: [10] });
    // The demo's app-owned plan webhook is enabled with an internet URL.
    await sim.call('POST', `/users/${sim.userId('jordan.lee@acme.example')}/deactivate`);
    await sim.callbacks.idle();
    const hooks = (await sim.call('GET', '/webhooks', { token: sim.tokens.app })).body.data as { status: string; disabledDetails?: string }[];
    expect(hooks[0]).toMatchObject({ status: 'DISABLED_CALLBACK_FAILED' });
    expect(hooks[0]!.disabledDetails).toMatch(/only calls loopback/);
  });

  it('sends column and discussion changes to the sheet webhooks, within their column subscope', async () => {
    // Short retries: the demo's own sheet webhook (an internet URL) fails and is soon disabled, so idle() comes.
    sim = createTestServer({ callbackDebounceMs: 10, callbackRetryDelaysMs: [10] });
    subscriber = await startCallbackSubscriber();
    const sheet = DEMO.itAssetSheetId;
    const columns = (await sim.call('GET', `/sheets/${sheet}/columns`)).body.data as { id: number; title: string }[];
    const notes = columns.find((c) => c.title === 'Notes')!.id;
    const created = (await sim.call('POST', '/webhooks', { body: { name: 'notes', callbackUrl: subscriber.url, scope: 'sheet', scopeObjectId: sheet, events: ['*.*'], version: 1, subscope: { columnIds: [notes] } } })).body.result as { id: number };
    await sim.call('PUT', `/webhooks/${created.id}`, { body: { enabled: true } });
    await sim.call('PUT', `/sheets/${sheet}/columns/${notes}`, { body: { title: 'Remarks' } });
    await sim.call('PUT', `/sheets/${sheet}/columns/${columns.find((c) => c.title === 'Purchased')!.id}`, { body: { title: 'Bought' } });
    const discussion = (await sim.call('POST', `/sheets/${sheet}/discussions`, { body: { comment: { text: 'Audit moved to Tuesday.' } } })).body.result as { id: number };
    await subscriber.waitFor(1);
    await sim.callbacks.idle();
    const events = subscriber.received.flatMap((c) => c.body.events ?? []);
    expect(events.map((e) => [e.objectType, e.eventType, e.id])).toEqual([
      ['column', 'updated', notes],
      ['discussion', 'created', discussion.id],
    ]);
    expect(subscriber.received[0]!.body).toMatchObject({ scope: 'sheet', scopeObjectId: sheet });
  });
});
