import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, DAY, type TestServer } from './sim-client.js';

type Listed = { email: string; seatType: string; provisionalExpirationDate: string | null; seatTypeLastChangedAt: string };

describe('Provisional Members expire to a free seat at the end of the review period (docs/service.md#provisional-members)', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const listed = async (email: string) => ((await sim.call('GET', `/2.0/users?planId=${DEMO.planId}&email=${email}`)).body.data as Listed[])[0];

  it('keeps the seat until provisionalExpirationDate, then reports CONTRIBUTOR with the seat fields updated', async () => {
    sim = createTestServer({ now: '2026-11-10T00:00:00Z' });
    const before = await listed('riley.owens@acme.example');
    expect(before?.seatType).toBe('PROVISIONAL_MEMBER');
    const expiresAt = Date.parse(before?.provisionalExpirationDate ?? '');
    sim.clock.set(expiresAt - 1000);
    expect((await listed('riley.owens@acme.example'))?.seatType).toBe('PROVISIONAL_MEMBER');
    sim.clock.set(expiresAt + DAY);
    const after = await listed('riley.owens@acme.example');
    expect([after?.seatType, after?.provisionalExpirationDate]).toEqual(['CONTRIBUTOR', null]);
    expect(Date.parse(after?.seatTypeLastChangedAt ?? '')).toBe(expiresAt);
    const logged = sim.mutations.list({ userId: sim.userId('riley.owens@acme.example'), operation: 'provisionalSeatExpired' });
    expect(logged).toHaveLength(1);
  });

  it('drops an external Provisional Member to GUEST', async () => {
    sim = createTestServer();
    const user = (await sim.call('POST', '/2.0/users', { body: { email: 'consultant@partner.example' } })).body.result as { id: number };
    sim.clock.advance(31 * DAY);
    await sim.call('GET', '/2.0/users/me');
    expect(sim.context.state.users.get(user.id)?.seats[0]?.seatType).toBe('GUEST');
  });

  it('leaves a Provisional Member upgraded before the end alone', async () => {
    sim = createTestServer();
    const riley = sim.userId('riley.owens@acme.example');
    expect((await sim.call('POST', `/2.0/users/${riley}/plans/${DEMO.planId}/upgrade`, { body: { seatType: 'MEMBER' } })).status).toBe(200);
    sim.clock.advance(60 * DAY);
    await sim.call('GET', '/2.0/users/me');
    expect(sim.context.state.users.get(riley)?.seats[0]?.seatType).toBe('MEMBER');
    expect(sim.mutations.list({ operation: 'provisionalSeatExpired', userId: riley })).toHaveLength(0);
  });
});
