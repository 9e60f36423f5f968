import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, DAY, type TestServer } from './sim-client.js';

describe('deactivate and reactivate rules', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('deactivates an eligible user and logs the change once', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    const res = await sim.call('POST', `/2.0/users/${id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'SUCCESS', resultCode: 0 });
    expect(sim.context.state.users.get(id)?.status).toBe('DEACTIVATED');
    expect(sim.mutations.list({ userId: id, operation: 'deactivateUser' })).toHaveLength(1);
  });

  it('refuses an ISP-domain e-mail with 403 1359', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('sam.taylor@gmail.com')}/deactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 1359]);
  });

  it('refuses a user managed by an external source with 403 and the server\'s own 9002', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('alex.kim@acme.example')}/deactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 9002]);
  });

  it('refuses an e-mail outside the plan domains with 403 9001', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('jamie.fox@partner.example')}/deactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 9001]);
  });

  it('answers 403 1004 to a non-admin token', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('marcus.chen@acme.example')}/deactivate`, { token: sim.tokens.user });
    expect([res.status, res.body.errorCode]).toEqual([403, 1004]);
    expect(sim.context.state.users.get(sim.userId('marcus.chen@acme.example'))?.status).toBe('ACTIVE');
  });

  it('treats deactivating a deactivated user as a no-op', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('taylor.brooks@acme.example')}/deactivate`);
    expect(res.status).toBe(200);
    expect(sim.mutations.size()).toBe(0);
  });

  it('reactivates within the window and refuses after it', async () => {
    sim = createTestServer();
    const ok = await sim.call('POST', `/users/${sim.userId('taylor.brooks@acme.example')}/reactivate`);
    expect(ok.status).toBe(200);
    expect(sim.context.state.users.get(sim.userId('taylor.brooks@acme.example'))?.status).toBe('ACTIVE');
    const late = await sim.call('POST', `/users/${sim.userId('morgan.price@acme.example')}/reactivate`);
    expect([late.status, late.body.errorCode]).toEqual([403, 9003]);
  });

  it('measures the window with the sim clock', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    await sim.call('POST', `/users/${id}/deactivate`);
    sim.clock.advance(31 * DAY);
    const res = await sim.call('POST', `/users/${id}/reactivate`);
    expect(res.body.errorCode).toBe(9003);
  });

  it('takes a configurable window', async () => {
    sim = createTestServer({ reactivationWindowDays: 60 });
    const res = await sim.call('POST', `/users/${sim.userId('morgan.price@acme.example')}/reactivate`);
    expect(res.status).toBe(200);
  });

  it('refuses to reactivate a user no longer in the organization with 403 1354', async () => {
    sim = createTestServer();
    const id = sim.userId('taylor.brooks@acme.example');
    expect((await sim.call('DELETE', `/users/${id}`)).status).toBe(200);
    const res = await sim.call('POST', `/users/${id}/reactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 1354]);
  });

  it('refuses deactivating and reactivating yourself with 403 1336 and 1355', async () => {
    sim = createTestServer();
    const me = sim.userId('admin@acme.example');
    const deactivate = await sim.call('POST', `/users/${me}/deactivate`);
    expect([deactivate.status, deactivate.body.errorCode]).toEqual([403, 1336]);
    const reactivate = await sim.call('POST', `/users/${me}/reactivate`);
    expect([reactivate.status, reactivate.body.errorCode]).toEqual([403, 1355]);
  });

  it('refuses to deactivate a user who is not an active member (pending) with 403 1335', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('pat.quinn@acme.example')}/deactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 1335]);
  });

  it('answers 404 for an unknown user', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', '/users/1234567890123456/deactivate');
    expect([res.status, res.body.errorCode]).toEqual([404, 1006]);
  });

  it('takes the Member seat away on deactivation, with the seat fields updated (docs/service.md#seats-follow-the-lifecycle)', async () => {
    sim = createTestServer({ now: '2026-11-10T00:00:00Z' });
    const id = sim.userId('marcus.chen@acme.example');
    const before = sim.clock.now();
    await sim.call('POST', `/users/${id}/deactivate`);
    const after = sim.clock.now();
    const listed = (await sim.call('GET', `/users?planId=${DEMO.planId}&email=marcus.chen@acme.example`)).body.data as { seatType: string; seatTypeLastChangedAt: string }[];
    expect(listed[0]?.seatType).toBe('CONTRIBUTOR');
    const changedAt = Date.parse(listed[0]?.seatTypeLastChangedAt ?? '');
    expect(changedAt >= before && changedAt <= after).toBe(true);
    expect(sim.mutations.list({ userId: id, operation: 'deactivateUser' })[0]?.summary).toMatch(/MEMBER → VIEWER/);
  });

  it('takes a Provisional Member seat away too', async () => {
    sim = createTestServer();
    const id = sim.userId('riley.owens@acme.example');
    await sim.call('POST', `/users/${id}/deactivate`);
    const seat = sim.context.state.users.get(id)?.seats[0];
    expect([seat?.seatType, seat?.provisionalExpirationDate]).toEqual(['VIEWER', null]);
  });

  it('assigns a Member seat on reactivation, whatever the seat was before deactivation', async () => {
    sim = createTestServer();
    const id = sim.userId('casey.nguyen@acme.example');
    expect(sim.context.state.users.get(id)?.seats[0]?.seatType).toBe('VIEWER');
    await sim.call('POST', `/users/${id}/deactivate`);
    await sim.call('POST', `/users/${id}/reactivate`);
    expect(sim.context.state.users.get(id)?.seats[0]?.seatType).toBe('MEMBER');
    expect(sim.mutations.list({ userId: id, operation: 'reactivateUser' })[0]?.summary).toMatch(/VIEWER → MEMBER/);
  });

  it('loads a deactivated user of a fixture without a Member seat', async () => {
    sim = createTestServer();
    expect(sim.context.state.users.get(sim.userId('taylor.brooks@acme.example'))?.seats[0]?.seatType).toBe('VIEWER');
  });

  it('refuses every one of the 17 published consumer domains with 403 1359, and not a look-alike', async () => {
    sim = createTestServer();
    const domains = ['aol.com', 'charter.net', 'comcast.net', 'duck.com', 'email.com', 'gmail.com', 'hotmail.com', 'icloud.com', 'live.com', 'mail.com', 'mail.ru', 'outlook.com', 'rocketmail.com', 'usa.com', 'verizon.net', 'web.de', 'yahoo.com'];
    const plan = sim.context.state.plans.get(DEMO.planId);
    plan?.domains.push(...domains, 'gmail.example');
    for (const domain of [...domains, 'gmail.example']) {
      const added = (await sim.call('POST', '/users', { body: { email: `someone@${domain}` } })).body.result as { id: number };
      const res = await sim.call('POST', `/users/${added.id}/deactivate`);
      expect([domain, res.status, res.body.errorCode]).toEqual([domain, domain === 'gmail.example' ? 200 : 403, domain === 'gmail.example' ? undefined : 1359]);
    }
  });

  it('names the external source when it refuses a user it manages', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', `/users/${sim.userId('alex.kim@acme.example')}/reactivate`);
    expect([res.status, res.body.errorCode]).toEqual([403, 9002]);
    expect(res.body.message).toMatch(/Okta/);
  });

  it('on a Smartsheet Gov server refuses deactivate and reactivate with 403 9007 and changes nothing (docs/service.md#regions)', async () => {
    sim = createTestServer({ gov: true });
    const marcus = sim.userId('marcus.chen@acme.example');
    const deactivate = await sim.call('POST', `/users/${marcus}/deactivate`);
    expect([deactivate.status, deactivate.body.errorCode]).toEqual([403, 9007]);
    const reactivate = await sim.call('POST', `/users/${sim.userId('taylor.brooks@acme.example')}/reactivate`);
    expect([reactivate.status, reactivate.body.errorCode]).toEqual([403, 9007]);
    expect(sim.context.state.users.get(marcus)?.status).toBe('ACTIVE');
    expect(sim.mutations.size()).toBe(0);
  });
});
