import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { PLAN_READING_STANDS_MS } from '../../src/plan/plan-reading-stands.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { changes, seatOf, userOf, useSyncHarnesses, type SyncHarness } from '../helpers/sync-harness.js';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' }, leavers: { hold: '7d' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';
const MOVER = 'jordan.lee@acme.example';
const JOINER = 'nina.new@acme.example';

/**
 * Night 1 accepts the staff; night 2 (no workers yet) plans a mover to Sales and a joiner, both due at once. Returns
 * where the request log stood after the plan: what follows is the steps'.
 */
async function planned(h: BatchHarness, s: SyncHarness): Promise<{ since: number }> {
  const policy = s.writePolicy('lifecycle.json', POLICY);
  const today = new Date(h.server.context.clock.now()).toISOString().slice(0, 10);
  const generated = () => `${new Date(h.server.context.clock.now()).toISOString().slice(0, 19)}Z`;
  const row = (id: string, email: string, department: string, extra: { start?: string; effective?: string } = {}) => [id, email, 'Active', extra.start ?? '2020-01-06', '', department, 'Engineer', '', 'Berlin', extra.effective ?? '', generated()].join(',');
  const one = await s.sync(s.writeExport('hr-1.csv', [HEADER, row('E1', MOVER, 'Engineering')]), policy, { acceptMissing: true });
  if (one.kind !== 'planned' || !one.disposition.applied) throw new Error('night 1 was not applied');
  h.server.context.clock.advance(60_000);
  const two = await s.sync(s.writeExport('hr-2.csv', [HEADER, row('E1', MOVER, 'Sales', { effective: today }), row('E2', JOINER, 'Engineering', { start: today })]), policy, { acceptMissing: true });
  if (two.kind !== 'planned' || !two.disposition.applied) throw new Error('night 2 was not applied');
  const since = h.server.requests.list().at(-1)?.seq ?? 0;
  expect([two.plan.movers.map((m) => m.employee.email), two.plan.joiners.map((j) => [j.employee.email, j.how])]).toEqual([[MOVER], [[JOINER, 'add']]]);
  return { since };
}

/** Calls since `since` that read one user: its profile, its plans, or its address. */
function readsOf(h: BatchHarness, since: number, email: string): string[] {
  const id = userOf(h, email)?.id;
  return h.server.requests
    .list({ afterSeq: since })
    .filter((call) => call.path === `/2.0/users/${id}` || call.path === `/2.0/users/${id}/plans` || (call.operation === 'listUsers' && call.query.email === email))
    .map((call) => call.operation);
}

describe('HR sync steps on the plan\'s reading', () => {
  const { open } = useSyncHarnesses();

  it('moves a seat and adds a joiner on what the plan read when the steps run within 15 minutes of it: no read of their own but the joiner\'s seat, read after the add in the plan\'s listing', async () => {
    const { h, s } = await open();
    const { since } = await planned(h, s);
    s.o.startWorkers();
    await s.settleAll();
    expect(await changes(h, MOVER)).toEqual(['downgradeUser']);
    expect(seatOf(h, MOVER)).toBe('CONTRIBUTOR');
    expect(readsOf(h, since, MOVER)).toEqual([]);
    expect(await changes(h, JOINER)).toEqual(['addUser', 'upgradeUser']);
    expect(seatOf(h, JOINER)).toBe('MEMBER');
    // The plan's listing found no such address; after the add the seat step lists the policy's plan for the joiners
    // whose seat steps run together (here the one), since the add's answer does not say which plan holds the seat.
    expect(readsOf(h, since, JOINER)).toEqual(['listUsers']);
    expect(h.server.requests.list({ afterSeq: since, operation: 'listUsers' }).at(-1)?.query).toMatchObject({ email: JOINER, planId: String(DEMO.planId) });
  });

  it('reads the users again when the steps run more than 15 minutes after the plan, and acts on what it finds then', async () => {
    const { h, s } = await open();
    const { since } = await planned(h, s);
    // Behind the plan's back: an admin lowers the mover's seat and adds the joiner by hand.
    const mover = userOf(h, MOVER);
    const seat = mover?.seats.find((each) => each.planId === DEMO.planId);
    if (seat === undefined) throw new Error(`${MOVER} holds no seat in the demo plan`);
    seat.seatType = 'VIEWER';
    await h.api.users.add({ email: JOINER });
    await s.o.advance(PLAN_READING_STANDS_MS + 60_000);
    s.o.startWorkers();
    await s.settleAll();
    expect(await changes(h, MOVER)).toEqual([]);
    expect(readsOf(h, since, MOVER)).toEqual(['getUser', 'listUserPlans']);
    // Found in the organization by its own look-up: not added twice, only given the policy's seat (its seat read in the
    // plan's listing at the seat step).
    expect(await changes(h, JOINER)).toEqual(['addUser', 'upgradeUser']);
    expect(readsOf(h, since, JOINER)).toEqual(['listUsers', 'listUsers']);
    expect(h.server.requests.list({ afterSeq: since }).filter((call) => call.operation === 'addUser')).toHaveLength(1);
    expect(seatOf(h, JOINER)).toBe('MEMBER');
  });
});
