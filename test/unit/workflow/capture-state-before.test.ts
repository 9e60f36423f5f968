import { beforeEach, describe, expect, it } from 'vitest';
import { captureStateBefore } from '../../../src/workflow/capture-state-before.js';
import { PLAN_READING_STANDS_MS } from '../../../src/plan/plan-reading-stands.js';
import type { LeaverState, StateBefore } from '../../../src/workflow/leaver-state.js';
import { useCountedClient } from '../../helpers/counted-client.js';

const counted = useCountedClient({ users: 20 });
const { calls } = counted;
beforeEach(() => {
  calls.length = 0;
});

const PLANNED_AT = Date.parse('2026-11-02T09:00:00Z');
// What the plan read: deliberately unlike the reference server's user, so a test can tell which one it got.
const atPlan: StateBefore = { recordedAt: new Date(PLANNED_AT).toISOString(), status: 'ACTIVE', seats: [{ planId: 1, seatType: 'GUEST' }] };

function leaver(email: string, leaveAt: number, stateBefore?: StateBefore): LeaverState & { userId: number } {
  const user = [...counted.server.context.state.users.values()].find((candidate) => candidate.email === email);
  if (user === undefined) throw new Error(`no ${email}`);
  return { row: 1, line: 2, email, userId: user.id, leaveAt, phase: 'scheduled', version: 0, notes: [], steps: [], ...(stateBefore === undefined ? {} : { stateBefore }) };
}

describe('captureStateBefore', () => {
  it('keeps the plan\'s reading, with no call, for a deactivation due when the plan read it and run soon after', async () => {
    const at = new Date(PLANNED_AT + PLAN_READING_STANDS_MS);
    expect(await captureStateBefore(counted.api, leaver('priya.shah@acme.example', PLANNED_AT, atPlan), { at })).toEqual(atPlan);
    expect(calls).toEqual([]);
  });

  it('reads the user again when the step runs long after the plan (an offboarding queued later than planned)', async () => {
    const at = new Date(PLANNED_AT + PLAN_READING_STANDS_MS + 1);
    const before = await captureStateBefore(counted.api, leaver('priya.shah@acme.example', PLANNED_AT, atPlan), { at });
    expect(calls.sort()).toEqual(['users.get', 'users.listPlans']);
    expect(before.recordedAt).toBe(at.toISOString());
    expect(before.seats).not.toEqual(atPlan.seats);
    expect(before.seats.length).toBeGreaterThan(0);
  });

  it('reads the user on a later leave date: someone deactivated them since the plan, so an undo must not reactivate them', async () => {
    const dana = leaver('dana.whitfield@acme.example', PLANNED_AT + 86_400_000, atPlan);
    await counted.api.users.deactivate(dana.userId);
    calls.length = 0;
    const before = await captureStateBefore(counted.api, dana, { at: new Date(PLANNED_AT + 86_400_000) });
    expect(before.status).toBe('DEACTIVATED');
    expect(calls.sort()).toEqual(['users.get', 'users.listPlans']);
  });

  it('reads a leaver the plan has no reading of (found in none of the caller\'s plans)', async () => {
    const before = await captureStateBefore(counted.api, leaver('priya.shah@acme.example', PLANNED_AT), { at: new Date(PLANNED_AT) });
    expect(before.status).toBe('ACTIVE');
    expect(calls.sort()).toEqual(['users.get', 'users.listPlans']);
  });
});
