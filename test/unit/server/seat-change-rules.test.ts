import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

// Fixed before and after the VIEWER sunset (2026-10-30), so the tests do not depend on today's date.
const BEFORE_SUNSET = { viewerSunset: '2099-01-01' };

describe('downgrade and upgrade rules', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const seat = (email: string) => sim.context.state.users.get(sim.userId(email))?.seats.find((s) => s.planId === DEMO.planId)?.seatType;
  const path = (email: string, verb: string) => `/2.0/users/${sim.userId(email)}/plans/${DEMO.planId}/${verb}`;

  it('refuses to downgrade an admin without removeAdminStatus', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('elena.garcia@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9004]);
    expect(seat('elena.garcia@acme.example')).toBe('MEMBER');
  });

  it('downgrades an admin with removeAdminStatus in the body and clears admin', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('elena.garcia@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR', removeAdminStatus: true } });
    expect(res.status).toBe(200);
    expect(seat('elena.garcia@acme.example')).toBe('VIEWER');
    expect(sim.context.state.users.get(sim.userId('elena.garcia@acme.example'))?.admin).toBe(false);
  });

  it('takes removeAdminStatus from the query in any case', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `${path('elena.garcia@acme.example', 'downgrade')}?removeAdminStatus=True`, { body: { seatType: 'CONTRIBUTOR' } });
    expect(res.status).toBe(200);
    expect(seat('elena.garcia@acme.example')).toBe('VIEWER');
  });

  it('before the sunset accepts CONTRIBUTOR as VIEWER, and VIEWER itself', async () => {
    sim = createTestServer(BEFORE_SUNSET);
    expect((await sim.call('POST', path('jordan.lee@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } })).status).toBe(200);
    expect(seat('jordan.lee@acme.example')).toBe('VIEWER');
    const res = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect(res.status).toBe(200);
    expect(seat('marcus.chen@acme.example')).toBe('VIEWER');
  });

  it('past the sunset refuses VIEWER in a downgrade body (400 1031) and takes CONTRIBUTOR', async () => {
    sim = createTestServer({ now: '2026-11-02T00:00:00Z' });
    const viewer = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect([viewer.status, viewer.body.errorCode]).toEqual([400, 1031]);
    expect(seat('marcus.chen@acme.example')).toBe('MEMBER');
    const contributor = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect(contributor.status).toBe(200);
    const listed = await sim.call('GET', `/users?planId=${DEMO.planId}&seatType=CONTRIBUTOR&email=marcus.chen@acme.example`);
    expect((listed.body.data as { seatType: string }[])[0]?.seatType).toBe('CONTRIBUTOR');
  });

  it('follows a configured sunset date by the sim clock', async () => {
    sim = createTestServer({ viewerSunset: '2027-03-01T00:00:00Z', now: '2027-02-27T00:00:00Z' });
    const before = await sim.call('POST', path('jordan.lee@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect(before.status).toBe(200);
    sim.clock.set(Date.parse('2027-03-02T00:00:00Z'));
    const after = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'VIEWER' } });
    expect([after.status, after.body.errorCode]).toEqual([400, 1031]);
  });

  it('answers 200 without a change for the current seat', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('casey.nguyen@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect(res.status).toBe(200);
    expect(sim.mutations.size()).toBe(0);
  });

  it('refuses to downgrade a seat that is not Member, Provisional Member or Guest', async () => {
    sim = createTestServer();
    // lee.park is external (isInternal: false) with a CONTRIBUTOR seat: GUEST would be a seat change, not a downgrade.
    const res = await sim.call('POST', path('lee.park@partner.example', 'downgrade'), { body: { seatType: 'GUEST' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9004]);
  });

  it('refuses to downgrade a user who is not Active', async () => {
    sim = createTestServer();
    const pending = sim.context.state.users.get(sim.userId('pat.quinn@acme.example'));
    const seatOfPending = pending?.seats.find((s) => s.planId === DEMO.planId);
    if (seatOfPending !== undefined) seatOfPending.seatType = 'MEMBER';
    const res = await sim.call('POST', path('pat.quinn@acme.example', 'downgrade'), { body: { seatType: 'CONTRIBUTOR' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9004]);
  });

  it('refuses to downgrade an internal user to GUEST with 403 9005, whatever else holds', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('marcus.chen@acme.example', 'downgrade'), { body: { seatType: 'GUEST' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9005]);
    expect(seat('marcus.chen@acme.example')).toBe('MEMBER');
  });

  it('downgrades an external Member to GUEST', async () => {
    sim = createTestServer();
    const external = sim.context.state.users.get(sim.userId('jamie.fox@partner.example'))?.seats.find((s) => s.planId === DEMO.planId);
    if (external !== undefined) external.seatType = 'MEMBER';
    const res = await sim.call('POST', path('jamie.fox@partner.example', 'downgrade'), { body: { seatType: 'GUEST' } });
    expect(res.status).toBe(200);
    expect(seat('jamie.fox@partner.example')).toBe('GUEST');
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
    expect([res.status, res.body.errorCode]).toEqual([403, 9005]);
  });

  it('upgrades an external user (isInternal: false) to GUEST, refuses an internal one with 403 9005', async () => {
    sim = createTestServer();
    const internal = await sim.call('POST', path('casey.nguyen@acme.example', 'upgrade'), { body: { seatType: 'GUEST' } });
    expect([internal.status, internal.body.errorCode]).toEqual([403, 9005]);
    expect(seat('casey.nguyen@acme.example')).toBe('VIEWER');
    const external = await sim.call('POST', path('lee.park@partner.example', 'upgrade'), { body: { seatType: 'GUEST' } });
    expect(external.status).toBe(200);
    expect(seat('lee.park@partner.example')).toBe('GUEST');
  });

  it('refuses an upgrade the seat does not allow with 403 9004 (an external MEMBER to GUEST)', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', path('sam.taylor@gmail.com', 'upgrade'), { body: { seatType: 'GUEST' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 9004]);
    expect(seat('sam.taylor@gmail.com')).toBe('MEMBER');
  });

  it('answers 404 when the user is not in the plan', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('marcus.chen@acme.example')}/plans/${DEMO.labsPlanId}/upgrade`);
    expect(res.status).toBe(404);
  });
});
