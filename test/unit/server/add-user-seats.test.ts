import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, DAY, type TestServer } from './sim-client.js';

type Added = { id: number; licensedSheetCreator: boolean; seatType: string; provisionalExpirationDate: string | null; seatTypeLastChangedAt: string; status: string };

/** Days between the seat's start and its provisional end, as the answer reports them. */
const reviewDays = (user: Added) => (Date.parse(user.provisionalExpirationDate ?? '') - Date.parse(user.seatTypeLastChangedAt)) / DAY;

describe('add user on a user-subscription plan allocates a seat (docs/service.md#add-user)', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('sets licensedSheetCreator true whatever was sent, and gives a Provisional Member seat until the review period ends', async () => {
    sim = createTestServer({ now: '2026-11-10T00:00:00Z' });
    const res = await sim.call('POST', '/2.0/users', { body: { email: 'new.hire@acme.example', licensedSheetCreator: false } });
    const user = res.body.result as Added;
    expect(res.status).toBe(200);
    expect([user.licensedSheetCreator, user.seatType, user.status]).toEqual([true, 'PROVISIONAL_MEMBER', 'ACTIVE']);
    expect(reviewDays(user)).toBe(30);
    const seat = sim.context.state.users.get(user.id)?.seats[0];
    expect([seat?.planId, seat?.seatType]).toEqual([DEMO.planId, 'PROVISIONAL_MEMBER']);
  });

  it('gives a System Admin a Member seat', async () => {
    sim = createTestServer();
    const user = (await sim.call('POST', '/2.0/users', { body: { email: 'second.admin@acme.example', admin: true } })).body.result as Added;
    expect([user.licensedSheetCreator, user.seatType, user.provisionalExpirationDate]).toEqual([true, 'MEMBER', null]);
  });

  it('invites an external address as PENDING with a Provisional Member seat outside the plan domains', async () => {
    sim = createTestServer();
    const user = (await sim.call('POST', '/2.0/users', { body: { email: 'consultant@partner.example' } })).body.result as Added & { isInternal: boolean };
    expect([user.status, user.seatType, user.isInternal, user.licensedSheetCreator]).toEqual(['PENDING', 'PROVISIONAL_MEMBER', false, true]);
  });

  it('takes the review period from the option provisionalReviewDays', async () => {
    sim = createTestServer({ now: '2026-11-10T00:00:00Z', provisionalReviewDays: 90 });
    const user = (await sim.call('POST', '/2.0/users', { body: { email: 'new.hire@acme.example' } })).body.result as Added;
    expect(reviewDays(user)).toBe(90);
  });
});
