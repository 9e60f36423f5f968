import { afterEach, describe, expect, it } from 'vitest';
import { createSmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { CALLBACK_SIGNATURE_HEADER, callbackSchema } from '../../src/contract/index.js';
import { checkCallback } from '../../src/events/check-callback.js';
import { OWN_CALL_EVENTS } from '../../src/events/own-change-ledger.js';
import { startCallbackSubscriber, type CallbackSubscriber } from '../helpers/callback-subscriber.js';
import { useContractServer } from '../helpers/contract-server.js';

describe('callbacks: the reference server sends what seatflow\'s endpoint verifies (contract, docs/service.md#events)', () => {
  const server = useContractServer({ callbackDebounceMs: 10 });
  let subscriber: CallbackSubscriber | undefined;
  afterEach(async () => {
    await subscriber?.close();
    subscriber = undefined;
  });

  it('sends the documented shape, signed so that checkCallback takes it, with the change agent the client sent', async () => {
    subscriber = await startCallbackSubscriber();
    const planId = 5420192837465012;
    const hook = await server().admin.webhooks.create({ name: 'events', callbackUrl: subscriber.url, scope: 'plan', scopeObjectId: planId, events: ['user.*'], version: 1 });
    expect((await server().admin.webhooks.update(hook.id, { enabled: true })).status).toBe('ENABLED');
    const agent = createSmartsheetClient({ baseUrl: server().sim.url, accessToken: server().sim.tokens.admin, changeAgent: 'seatflow-contract' });
    const jordan = await server().userId('jordan.lee@acme.example');
    await agent.users.deactivate(jordan);
    const [received] = await subscriber.waitFor(1);
    const check = checkCallback({ raw: received!.raw, signature: received!.headers[CALLBACK_SIGNATURE_HEADER] as string, webhookId: hook.id, secrets: [hook.sharedSecret!], serviceNowMs: server().sim.clock.now(), toleranceMs: 300_000 });
    expect(check.ok).toBe(true);
    const callback = callbackSchema.parse(JSON.parse(received!.raw));
    expect(Object.keys(callback).sort()).toEqual(['events', 'nonce', 'scope', 'scopeObjectId', 'timestamp', 'webhookId']);
    for (const event of callback.events ?? []) {
      expect(event).toMatchObject({ objectType: 'user', id: jordan, changeAgent: 'seatflow-contract' });
      expect(Number.isNaN(Date.parse(event.timestamp))).toBe(false);
      // Every user event the service sends is one an own call of seatflow's may explain (own-change-ledger.ts).
      expect(Object.values(OWN_CALL_EVENTS).flat()).toContain(`${event.objectType}.${event.eventType}`);
    }
    await agent.close();
  });

  it('names the client\'s user-changing calls by the path the own-change ledger reads the user from', async () => {
    const calls: { operation: string; path?: string }[] = [];
    const client = createSmartsheetClient({ baseUrl: server().sim.url, accessToken: server().sim.tokens.admin, beforeRequest: async (info) => void calls.push(info) });
    const dana = await server().userId('dana.whitfield@acme.example');
    await client.users.downgrade(dana, 5420192837465012, { seatType: 'CONTRIBUTOR' });
    await client.close();
    const call = calls.find((item) => item.operation === 'users.downgrade');
    expect(call?.path).toBe(`/users/${dana}/plans/5420192837465012/downgrade`);
  });
});
