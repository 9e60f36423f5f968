import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('downgrade and upgrade rules', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const seat = (email: string) => sim.context.state.users.get(sim.userId(email))?.seats.find((s) => s.planId === DEMO.planId)?.seatType;
  const path = (email: string, verb: string) => `/2.0/users/${sim.userId(email)}/plans/${DEMO.planId}/${verb}`;

  it('refuses to downgrade an admin without removeAdminStatus', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('elena.garcia@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1357]);
    expect(seat('elena.garcia@acme.example')).toBe('MEMBER');
  });

  it('downgrades an admin with removeAdminStatus in the body and clears admin', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('elena.garcia@acme.example', 'downgrade'), { body: { seatType: 'VIEWER', removeAdminStatus: true } });
    expect(res.status).toBe(200);
    expect(seat('elena.garcia@acme.example')).toBe('VIEWER');
    expect(sim.context.state.users.get(sim.userId('elena.garcia@acme.example'))?.admin).toBe(false);
  });

  it('takes removeAdminStatus from the query in any case', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `${path('elena.garcia@acme.example', 'downgrade')}?removeAdminStatus=True`, { body: { seatType: 'GUEST' } });
    expect(res.status).toBe(200);
    expect(seat('elena.garcia@acme.example')).toBe('GUEST');
  });

  it('accepts CONTRIBUTOR as VIEWER', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect(res.status).toBe(200);
    expect(seat('marcus.chen@acme.example')).toBe('VIEWER');
  });

  it('answers 200 without a change for the current seat', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('casey.nguyen@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect(res.status).toBe(200);
    expect(sim.mutations.size()).toBe(0);
  });

  it('refuses to downgrade a seat that is not Member, Provisional Member or Guest', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('casey.nguyen@acme.example', 'downgrade'), { body: { seatType: 'GUEST' } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1357]);
  });

  it('refuses to downgrade a user who is not Active', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('taylor.brooks@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1357]);
  });

  it('requires a seatType to downgrade', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: {} });
    expect(res.status).toBe(400);
  });

  it('upgrades to MEMBER when no seat type is given', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('casey.nguyen@acme.example', 'upgrade'));
    expect(res.status).toBe(200);
    expect(seat('casey.nguyen@acme.example')).toBe('MEMBER');
  });

  it('upgrades a provisional member and refuses MEMBER → GUEST', async () => {
    sim = createTestServer();
    expect((await sim.call('POST', path('riley.owens@acme.example', 'upgrade'), { body: { seatType: 'MEMBER' } })).status).toBe(200);
    expect(seat('riley.owens@acme.example')).toBe('MEMBER');
    const res = await sim.call('POST', path('marcus.chen@acme.example', 'upgrade'), { body: { seatType: 'GUEST' } });
    expect(res.status).toBe(400);
  });

  it('answers 404 when the user is not in the plan', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('marcus.chen@acme.example')}/plans/${DEMO.labsPlanId}/upgrade`);
    expect(res.status).toBe(404);
  });
});
