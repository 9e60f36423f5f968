import { describe, expect, it, vi } from 'vitest';
import type { CallbackEvent } from '../../../src/contract/index.js';
import { classifyEvent } from '../../../src/events/classify-event.js';
import { createEventKeys } from '../../../src/events/event-keys.js';
import { createOwnChangeLedger } from '../../../src/events/own-change-ledger.js';
import { useTestRedisClient } from '../../helpers/test-redis-client.js';

const redis = useTestRedisClient();
const SEATFLOW = 100;
const event = (over: Partial<CallbackEvent>): CallbackEvent => ({ objectType: 'user', eventType: 'deactivated', id: 5, userId: SEATFLOW, timestamp: '2026-11-23T10:00:00.000Z', ...over });

function ledgerAt(now: { value: number }) {
  return createOwnChangeLedger(redis.client, createEventKeys(redis.server.prefix(), 'sim:test'), { windowMs: 60_000, now: () => now.value });
}

describe('whose change an event reports (docs/events.md#whose-change)', () => {
  it('tells another user\'s change and the service\'s own as made outside, without asking the ledger', async () => {
    const ledger = { explain: async () => { throw new Error('not asked'); } };
    expect(await classifyEvent(event({ userId: 7 }), { ownUserId: SEATFLOW, ledger, now: 0 })).toEqual({ by: 'outside', why: 'another-user' });
    expect(await classifyEvent(event({ userId: undefined }), { ownUserId: SEATFLOW, ledger, now: 0 })).toEqual({ by: 'outside', why: 'the-service' });
  });

  it('tells seatflow\'s own deactivation by its call in the ledger, for the deactivation and the seat it took, once each', async () => {
    const now = { value: 1_000_000 };
    const ledger = ledgerAt(now);
    await ledger.note({ operation: 'users.deactivate', method: 'POST', path: '/users/5/deactivate', cost: 1 });
    now.value += 2000;
    const options = { ownUserId: SEATFLOW, ledger, now: now.value };
    expect(await classifyEvent(event({}), options)).toMatchObject({ by: 'seatflow', why: 'own-call' });
    expect(await classifyEvent(event({ eventType: 'seatType.updated', seatType: 'CONTRIBUTOR' }), options)).toMatchObject({ by: 'seatflow' });
    // The same event asked again (its handling retried after Redis failed under it) finds the call it claimed.
    expect(await classifyEvent(event({ eventType: 'seatType.updated', seatType: 'CONTRIBUTOR' }), options)).toMatchObject({ by: 'seatflow' });
    // A second deactivation event of the same user needs a second call: someone else used the account.
    expect(await classifyEvent(event({ timestamp: '2026-11-23T10:05:00.000Z' }), options)).toEqual({ by: 'outside', why: 'own-account-not-seatflow' });
    // Another user, or an operation the call does not make, is not explained by it.
    expect(await classifyEvent(event({ id: 6 }), options)).toMatchObject({ by: 'outside' });
    expect(await classifyEvent(event({ eventType: 'removed' }), options)).toMatchObject({ by: 'outside' });
  });

  // Seed 7207 of the simulation: seatflow downgraded a user (four attempts, so four notes for one event) and deactivated
  // a leaver who held no Member seat (no seat event); minutes later an admin gave each a Member seat in the Admin
  // Center, with seatflow's account. The spare notes took both seat events for seatflow's: no change.outside entry.
  it('never explains a seat event going the other way than the call: a Member seat given after a downgrade or a deactivation is outside', async () => {
    const now = { value: 9_000_000 };
    const ledger = ledgerAt(now);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await ledger.note({ operation: 'users.downgrade', method: 'POST', path: '/users/21/plans/7/downgrade', json: { seatType: 'CONTRIBUTOR' }, cost: 1 });
    }
    await ledger.note({ operation: 'users.deactivate', method: 'POST', path: '/users/22/deactivate', cost: 1 });
    await ledger.note({ operation: 'users.reactivate', method: 'POST', path: '/users/23/reactivate', cost: 1 });
    await ledger.note({ operation: 'users.upgrade', method: 'POST', path: '/users/24/plans/7/upgrade', json: { seatType: 'GUEST' }, cost: 1 });
    now.value += 2000;
    const options = { ownUserId: SEATFLOW, ledger, now: now.value };
    const seat = (id: number, seatType: string, minute = 10) => event({ eventType: 'seatType.updated', id, seatType, timestamp: `2026-11-23T10:${minute}:00.000Z` });
    expect(await classifyEvent(seat(21, 'CONTRIBUTOR'), options)).toMatchObject({ by: 'seatflow', why: 'own-call' });
    expect(await classifyEvent(seat(21, 'MEMBER', 20), options)).toEqual({ by: 'outside', why: 'own-account-not-seatflow' });
    expect(await classifyEvent(seat(22, 'MEMBER'), options)).toEqual({ by: 'outside', why: 'own-account-not-seatflow' });
    expect(await classifyEvent(seat(22, 'VIEWER', 20), options)).toMatchObject({ by: 'seatflow' });
    expect(await classifyEvent(seat(23, 'GUEST'), options)).toMatchObject({ by: 'outside' });
    expect(await classifyEvent(seat(23, 'MEMBER', 20), options)).toMatchObject({ by: 'seatflow' });
    expect(await classifyEvent(seat(24, 'MEMBER'), options)).toMatchObject({ by: 'outside' });
    expect(await classifyEvent(seat(24, 'GUEST', 20), options)).toMatchObject({ by: 'seatflow' });
  });

  it('explains an add by the e-mail in its body, and forgets calls older than the window', async () => {
    const now = { value: 5_000_000 };
    const ledger = ledgerAt(now);
    await ledger.note({ operation: 'users.add', method: 'POST', path: '/users', json: { email: 'New.Joiner@acme.example' }, cost: 1 });
    await ledger.note({ operation: 'users.upgrade', method: 'POST', path: '/users/9/plans/7/upgrade', cost: 1 });
    // Reads are not written at all.
    await ledger.note({ operation: 'users.get', method: 'GET', path: '/users/9', cost: 1 });
    expect(await classifyEvent(event({ eventType: 'added', id: 77, email: 'new.joiner@acme.example' }), { ownUserId: SEATFLOW, ledger, now: now.value })).toMatchObject({ by: 'seatflow' });
    now.value += 61_000;
    expect(await classifyEvent(event({ eventType: 'seatType.updated', id: 9 }), { ownUserId: SEATFLOW, ledger, now: now.value })).toMatchObject({ by: 'outside' });
  });

  it('takes seatflow\'s change agent as its mark when the event carries it', async () => {
    const ledger = { explain: async () => undefined };
    expect(await classifyEvent(event({ changeAgent: 'hr-bot,seatflow-acme' }), { ownUserId: SEATFLOW, changeAgent: 'seatflow-acme', ledger, now: 0 })).toEqual({ by: 'seatflow', why: 'change-agent' });
    expect(await classifyEvent(event({ changeAgent: 'hr-bot' }), { ownUserId: SEATFLOW, changeAgent: 'seatflow-acme', ledger, now: 0 })).toMatchObject({ by: 'outside' });
  });

  it('times notes by Redis\' clock: a worker whose own clock is hours behind or ahead still explains its change', async () => {
    const keys = createEventKeys(redis.server.prefix(), 'sim:skew');
    const hours = 2 * 3_600_000;
    // Each seatflow process has its own ledger over the same keys; a worker's is made while its clock is skewed.
    const noteFromWorkerSkewedBy = async (by: number) => {
      const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + by);
      try {
        await createOwnChangeLedger(redis.client, keys, { windowMs: 60_000 }).note({ operation: 'users.deactivate', method: 'POST', path: '/users/11/deactivate', cost: 1 });
      } finally {
        clock.mockRestore();
      }
    };
    await noteFromWorkerSkewedBy(-hours);
    // A worker hours ahead notes another call: it must not prune the first one as old.
    await noteFromWorkerSkewedBy(hours);
    const ledger = createOwnChangeLedger(redis.client, keys, { windowMs: 60_000 });
    const options = { ownUserId: SEATFLOW, ledger, now: Date.now() };
    expect(await classifyEvent(event({ id: 11 }), options)).toMatchObject({ by: 'seatflow', why: 'own-call' });
    expect(await classifyEvent(event({ id: 11 }), options)).toMatchObject({ by: 'seatflow', why: 'own-call' });
  });
});
