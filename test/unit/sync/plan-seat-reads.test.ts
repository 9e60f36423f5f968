import { describe, expect, it } from 'vitest';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import { DEMO } from '../../../src/server/demo/demo-organization.js';
import { createPlanSeatReads } from '../../../src/sync/plan-seat-reads.js';
import { useCountedClient } from '../../helpers/counted-client.js';

const counted = useCountedClient({ users: 300 });
const { calls } = counted;

/** Members with a seat in the demo plan, in the organization's order. */
function membersOfPlan(count: number): string[] {
  return [...counted.server.context.state.users.values()].filter((user) => user.inOrg && user.seats.some((seat) => seat.planId === DEMO.planId)).slice(0, count).map((user) => user.email);
}

describe('createPlanSeatReads', () => {
  it('reads the seats of the steps that ask close together in one plan-scoped call, each answered with its own user and that plan\'s seat', async () => {
    const reads = createPlanSeatReads(50);
    const emails = membersOfPlan(20);
    calls.length = 0;
    const users = await Promise.all(emails.map((email) => reads.read({ key: 'w1', planId: DEMO.planId, email: email.toUpperCase(), api: counted.api })));
    expect(calls).toEqual(['users.list']);
    expect(users.map((user) => user?.email)).toEqual(emails);
    expect(users.every((user) => user?.seatType !== undefined && user.status !== undefined)).toBe(true);
  });

  it('answers undefined for an address the plan does not list, and reads again for a step that asks after a read went out', async () => {
    const reads = createPlanSeatReads(20);
    const [first, second] = membersOfPlan(2);
    calls.length = 0;
    const missing = reads.read({ key: 'w1', planId: DEMO.planId, email: 'nobody@acme.example', api: counted.api });
    const one = reads.read({ key: 'w1', planId: DEMO.planId, email: first!, api: counted.api });
    expect(await missing).toBeUndefined();
    expect((await one)?.email).toBe(first);
    // Asked after the read: a new read, never the older answer.
    expect((await reads.read({ key: 'w1', planId: DEMO.planId, email: second!, api: counted.api }))?.email).toBe(second);
    expect(calls).toEqual(['users.list', 'users.list']);
  });

  it('sends a full call of 100 addresses at once without waiting, and keeps the reads of other workflows apart', async () => {
    const reads = createPlanSeatReads(60_000);
    const emails = membersOfPlan(100);
    calls.length = 0;
    const started = Date.now();
    const users = await Promise.all(emails.map((email) => reads.read({ key: 'w1', planId: DEMO.planId, email, api: counted.api })));
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(users.filter((user) => user !== undefined)).toHaveLength(100);
    expect(calls).toEqual(['users.list']);
    const other = createPlanSeatReads(10);
    calls.length = 0;
    await Promise.all([other.read({ key: 'w1', planId: DEMO.planId, email: emails[0]!, api: counted.api }), other.read({ key: 'w2', planId: DEMO.planId, email: emails[1]!, api: counted.api })]);
    expect(calls).toEqual(['users.list', 'users.list']);
  });

  it('fails every step that waited when the read fails (each retries as any step does)', async () => {
    const reads = createPlanSeatReads(10);
    const failing = { users: { listPage: () => Promise.reject(new Error('the service answered 503')) } } as unknown as SmartsheetApi;
    const answers = ['a@acme.example', 'b@acme.example'].map((email) => reads.read({ key: 'w1', planId: DEMO.planId, email, api: failing }).then(() => 'answered', (error: Error) => error.message));
    expect(await Promise.all(answers)).toEqual(['the service answered 503', 'the service answered 503']);
  });
});
