import { describe, expect, it } from 'vitest';
import type { Callback, CallbackEvent } from '../../../src/contract/index.js';
import { createSilentLogger } from '../../../src/core/logger.js';
import type { AuditRecord } from '../../../src/governance/audit/audit-entry.js';
import { createAuditLog } from '../../../src/governance/audit/audit-log.js';
import { createQueueKeys } from '../../../src/queue/queue-keys.js';
import type { NotificationEvent } from '../../../src/governance/notifications/notification-event.js';
import type { Drift, PolicyInForce } from '../../../src/events/drift-check.js';
import { createEventKeys } from '../../../src/events/event-keys.js';
import { handleCallback, type CallbackHandlingDeps } from '../../../src/events/handle-callback.js';
import { eventFingerprint, type OutsideChange } from '../../../src/events/outside-change.js';
import { createProvisionalTracker } from '../../../src/events/provisional-tracker.js';
import type { Subscription } from '../../../src/events/subscription-store.js';
import { createUserEventLog } from '../../../src/events/user-event-log.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const redis = useTestRedisClient();
const SEATFLOW = 100;
const ELENA = 200;
const SUBSCRIPTION: Subscription = { webhookId: 42, planId: 7, callbackUrl: 'x', ownUserId: SEATFLOW, ownEmail: 'admin@acme.example', secret: 's', createdAt: '' };
const POLICY: PolicyInForce = { path: '/policies/seats.json', kind: 'reconciliation', from: 'config events.policies' };

const callback = (events: CallbackEvent[]): Callback => ({ nonce: `n-${Math.random()}`, timestamp: '2026-11-23T10:00:00.000Z', webhookId: 42, scope: 'plan', scopeObjectId: 7, events });
const upgradeOfJordan: CallbackEvent = { objectType: 'user', eventType: 'seatType.updated', id: 5, userId: ELENA, timestamp: '2026-11-23T09:59:58.000Z', email: 'jordan.lee@acme.example', seatType: 'MEMBER', provisionalExpirationDate: null };

function setup(over: { drift?: Drift; ledgerExplains?: boolean; reconcile?: boolean } = {}) {
  const keys = createEventKeys(redis.server.prefix(), 'sim:test');
  const audit: AuditRecord[] = [];
  const notified: Omit<NotificationEvent, 'occurredAt'>[] = [];
  const people: [string, number, OutsideChange][] = [];
  const reconciled: Drift[] = [];
  const provisional = createProvisionalTracker(redis.client, keys);
  const deps: CallbackHandlingDeps = {
    redis: redis.client,
    keys,
    target: 'sim:test',
    sim: true,
    ledger: { explain: async () => (over.ledgerExplains === true ? { id: 'c1', operation: 'users.upgrade', userId: 5, at: 0 } : undefined) },
    provisional,
    userEvents: createUserEventLog(redis.client, keys),
    audit: { appendOnce: async (record) => (audit.push(record), {} as never) },
    notifier: { notify: async (event) => void notified.push(event) },
    emailOf: async (id) => (id === ELENA ? 'elena.garcia@acme.example' : undefined),
    drift: {
      policies: async () => [POLICY],
      check: async () => over.drift,
      ...(over.reconcile === true ? { reconcile: async (drift: Drift) => (reconciled.push(drift), { queued: 'b123', existed: false }) } : {}),
    },
    personChangedElsewhere: async (target, userId, change) => void people.push([target, userId, change]),
    now: () => Date.parse('2026-11-23T10:00:01Z'),
    logger: createSilentLogger(),
  };
  return { deps, audit, notified, people, reconciled, provisional };
}

const DRIFT: Drift = { policy: POLICY, policySha256: 'f', email: 'jordan.lee@acme.example', userId: 5, planId: 7, now: 'MEMBER', wanted: 'CONTRIBUTOR', seatNow: 'MEMBER', seatWanted: 'CONTRIBUTOR', rule: 'no login for 90 days', onDrift: 'reconcile' };

describe('handling a callback (docs/events.md)', () => {
  it('makes a change made elsewhere one audit entry, however often the entry is made again until a replica holds it', async () => {
    const { deps } = setup();
    const log = createAuditLog(redis.client, createQueueKeys(redis.server.prefix()));
    let made = 0;
    // As the replicated writes do when no replica took the first (a failover under way): the append is made again.
    const keptOnReplica = async (write: () => Promise<unknown>) => {
      for (let i = 0; i < 2; i += 1, made += 1) await write();
    };
    const event = callback([upgradeOfJordan]);
    await handleCallback(event, SUBSCRIPTION, { ...deps, audit: log, keptOnReplica });
    // The same callback handled again (a retried job, whose mark of the entry was lost) appends nothing either.
    await redis.client.del(deps.keys.event(eventFingerprint(event.webhookId, upgradeOfJordan)));
    await handleCallback(event, SUBSCRIPTION, { ...deps, audit: log, keptOnReplica });
    expect(made).toBe(4);
    const entries = [];
    for await (const entry of log.entries()) entries.push(JSON.parse(entry.raw) as { event: string; subject: string });
    expect(entries.map((entry) => [entry.event, entry.subject])).toEqual([['change.outside', 'jordan.lee@acme.example']]);
  });

  it('records a change made outside seatflow in the audit trail with who, when and what, and tells the lifecycles', async () => {
    const { deps, audit, people } = setup();
    const summary = await handleCallback(callback([upgradeOfJordan]), SUBSCRIPTION, deps);
    expect(summary).toMatchObject({ events: 1, outside: 1, seatflow: 0, drifts: 0 });
    expect(audit).toEqual([
      expect.objectContaining({ event: 'change.outside', actor: 'elena.garcia@acme.example', subject: 'jordan.lee@acme.example', data: expect.objectContaining({ event: 'user.seatType.updated', userId: 5, seatType: 'MEMBER', actorId: ELENA, at: upgradeOfJordan.timestamp, why: 'another-user' }) }),
    ]);
    expect(people).toEqual([['sim:test', 5, expect.objectContaining({ event: 'user.seatType.updated', actorEmail: 'elena.garcia@acme.example' })]]);
  });

  it('does nothing twice when the same event comes again (a re-delivered callback, a retried job)', async () => {
    const { deps, audit, notified, people, reconciled } = setup({ drift: DRIFT, reconcile: true });
    await handleCallback(callback([upgradeOfJordan]), SUBSCRIPTION, deps);
    const again = await handleCallback(callback([upgradeOfJordan]), SUBSCRIPTION, deps);
    expect(again).toMatchObject({ events: 1, repeated: 1 });
    expect([audit.length, notified.length, people.length, reconciled.length]).toEqual([1, 1, 1, 1]);
  });

  it('leaves seatflow\'s own change out of the trail (its row is there) and of drift', async () => {
    const { deps, audit, notified, people } = setup({ drift: DRIFT, ledgerExplains: true });
    const summary = await handleCallback(callback([{ ...upgradeOfJordan, userId: SEATFLOW }]), SUBSCRIPTION, deps);
    expect(summary).toMatchObject({ seatflow: 1, outside: 0 });
    expect([audit.length, notified.length, people.length]).toEqual([0, 0, 0]);
  });

  it('tells drift and queues the reconciliation when the policy says so, saying what it did', async () => {
    const { deps, notified, reconciled } = setup({ drift: DRIFT, reconcile: true });
    expect(await handleCallback(callback([upgradeOfJordan]), SUBSCRIPTION, deps)).toMatchObject({ drifts: 1 });
    expect(reconciled).toEqual([DRIFT]);
    expect(notified).toEqual([expect.objectContaining({ type: 'drift.detected', path: '/batches/b123', data: expect.objectContaining({ seatNow: 'MEMBER', seatWanted: 'CONTRIBUTOR', reconciled: { queued: 'b123', existed: false } }) })]);
    expect(notified[0]!.text).toMatch(/elena\.garcia@acme\.example[\s\S]*queued the reconciliation as batch b123/);
  });

  it('only tells drift when the policy says onDrift: notify', async () => {
    const { deps, notified, reconciled } = setup({ drift: { ...DRIFT, onDrift: 'notify' }, reconcile: true });
    await handleCallback(callback([upgradeOfJordan]), SUBSCRIPTION, deps);
    expect(reconciled).toEqual([]);
    expect(notified[0]!.text).toMatch(/onDrift: notify/);
  });

  it('tracks Provisional Members from seat events, whoever made them, and ends the tracking at another seat', async () => {
    const { deps, provisional } = setup({ ledgerExplains: true });
    const provisionalSeat = { ...upgradeOfJordan, userId: SEATFLOW, seatType: 'PROVISIONAL_MEMBER', provisionalExpirationDate: '2026-12-07T10:00:00.000Z' };
    await handleCallback(callback([provisionalSeat]), SUBSCRIPTION, deps);
    expect(await provisional.list()).toEqual([expect.objectContaining({ userId: 5, email: 'jordan.lee@acme.example', planId: 7, expiresAt: '2026-12-07T10:00:00.000Z', from: 'event' })]);
    await handleCallback(callback([{ ...upgradeOfJordan, timestamp: '2026-11-23T10:01:00.000Z' }]), SUBSCRIPTION, deps);
    expect(await provisional.list()).toEqual([]);
  });

  it("keeps each user's events, seatflow's and outside ones, in order, once: what a row whose answer was lost reads", async () => {
    const { deps } = setup({ ledgerExplains: true });
    const since = Date.now() - 1000;
    const ownDeactivation: CallbackEvent = { objectType: 'user', eventType: 'deactivated', id: 5, userId: SEATFLOW, timestamp: '2026-11-23T10:00:00.000Z', email: 'jordan.lee@acme.example' };
    const reactivatedByElena: CallbackEvent = { ...ownDeactivation, eventType: 'reactivated', userId: ELENA, timestamp: '2026-11-23T10:00:05.000Z' };
    // A seat event keeps the plan (the webhook's) and the seat: a seat change's row matches its own by them.
    const ownDowngrade: CallbackEvent = { ...ownDeactivation, eventType: 'seatType.updated', seatType: 'CONTRIBUTOR', timestamp: '2026-11-23T10:00:06.000Z' };
    const taken = callback([ownDeactivation, reactivatedByElena, ownDowngrade]);
    await handleCallback(taken, SUBSCRIPTION, deps);
    await redis.client.del(deps.keys.event(eventFingerprint(42, reactivatedByElena)));
    await handleCallback(taken, SUBSCRIPTION, deps);
    const log = createUserEventLog(redis.client, deps.keys as ReturnType<typeof createEventKeys>);
    expect(await log.heardSince(5, since)).toEqual([
      { event: 'user.deactivated', by: 'seatflow', at: ownDeactivation.timestamp, summary: 'jordan.lee@acme.example user.deactivated by seatflow at 2026-11-23T10:00:00.000Z', planId: 7 },
      { event: 'user.reactivated', by: 'outside', at: reactivatedByElena.timestamp, summary: 'jordan.lee@acme.example was reactivated by elena.garcia@acme.example at 2026-11-23T10:00:05.000Z', planId: 7 },
      { event: 'user.seatType.updated', by: 'seatflow', at: ownDowngrade.timestamp, summary: 'jordan.lee@acme.example user.seatType.updated CONTRIBUTOR by seatflow at 2026-11-23T10:00:06.000Z', planId: 7, seatType: 'CONTRIBUTOR' },
    ]);
    expect(await log.heardSince(5, Date.now() + 60_000)).toEqual([]);
  });

  it('names the service as the actor of a change no user made', async () => {
    const { deps, audit } = setup();
    await handleCallback(callback([{ ...upgradeOfJordan, userId: undefined, seatType: 'CONTRIBUTOR' }]), SUBSCRIPTION, deps);
    expect(audit[0]).toMatchObject({ actor: 'service', data: { why: 'the-service' } });
  });
});
