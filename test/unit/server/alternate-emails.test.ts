import { afterEach, describe, expect, it } from 'vitest';
import { ALTERNATE_EMAIL_LIMIT } from '../../../src/contract/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('alternate e-mails', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const base = () => `/users/${sim.userId('chris.morgan@acme.example')}/alternateemails`;

  it('answers 404, never an empty value, for an unknown alternate', async () => {
    sim = createTestServer();
    const res = await sim.call('GET', `${base()}/1234567890123456`);
    expect([res.status, res.body.errorCode]).toEqual([404, 1006]);
  });

  it('answers 404 when adding to an unknown user', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', '/users/1234567890123456/alternateemails', { body: [{ email: 'x@acme.example' }] });
    expect(res.status).toBe(404);
  });

  it('adds a list, then lists and gets each', async () => {
    sim = createTestServer();
    const added = await sim.call('POST', base(), { body: [{ email: 'cm@acme.example' }, { email: 'chris@partner.example' }] });
    expect(added.status).toBe(200);
    const result = added.body.result as { id: number; email: string; confirmed: boolean }[];
    expect(result.map((a) => [a.email, a.confirmed])).toEqual([['cm@acme.example', true], ['chris@partner.example', false]]);
    const list = await sim.call('GET', base());
    expect(list.body.totalCount).toBe(3);
    const one = await sim.call('GET', `${base()}/${result[0]!.id}`);
    expect(one.body).toEqual({ id: result[0]!.id, email: 'cm@acme.example', confirmed: true });
  });

  it('refuses an address already in use with 1157', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', base(), { body: [{ email: 'dana.whitfield@acme.example' }] });
    expect([res.status, res.body.errorCode]).toEqual([400, 1157]);
  });

  it('makes a confirmed alternate primary and keeps the old primary as alternate', async () => {
    sim = createTestServer();
    const id = sim.userId('chris.morgan@acme.example');
    const alt = sim.context.state.users.get(id)!.alternateEmails[0]!;
    const res = await sim.call('POST', `${base()}/${alt.id}/makeprimary`);
    expect(res.status).toBe(200);
    expect(sim.context.state.users.get(id)?.email).toBe('chris.m@acme.example');
    expect(sim.userId('chris.m@acme.example')).toBe(id);
    expect(sim.context.state.users.get(id)?.alternateEmails[0]?.email).toBe('chris.morgan@acme.example');
  });

  it('refuses to promote an unconfirmed alternate (1158)', async () => {
    sim = createTestServer();
    const added = await sim.call('POST', base(), { body: [{ email: 'chris@partner.example' }] });
    const alt = (added.body.result as { id: number }[])[0]!;
    const res = await sim.call('POST', `${base()}/${alt.id}/makeprimary`);
    expect([res.status, res.body.errorCode]).toEqual([400, 1158]);
  });

  it('deletes, then answers 404', async () => {
    sim = createTestServer();
    const alt = sim.context.state.users.get(sim.userId('chris.morgan@acme.example'))!.alternateEmails[0]!;
    expect((await sim.call('DELETE', `${base()}/${alt.id}`)).status).toBe(200);
    expect((await sim.call('DELETE', `${base()}/${alt.id}`)).status).toBe(404);
  });

  describe('the rules a domain migration meets', () => {
    const altBase = (email: string) => `/users/${sim.userId(email)}/alternateemails`;
    const addOne = (email: string, address: string) => sim.call('POST', altBase(email), { body: [{ email: address }] });

    it('refuses another user\'s alternate address with 1159, and this user\'s own primary or alternate with 1157', async () => {
      sim = createTestServer();
      expect((await addOne('dana.whitfield@acme.example', 'chris.m@acme.example')).body.errorCode).toBe(1159);
      expect((await addOne('chris.morgan@acme.example', 'chris.m@acme.example')).body.errorCode).toBe(1157);
      expect((await addOne('chris.morgan@acme.example', 'chris.morgan@acme.example')).body.errorCode).toBe(1157);
    });

    it('refuses the alternate beyond the per-user limit with 1330, adding none of the request', async () => {
      sim = createTestServer();
      const body = Array.from({ length: ALTERNATE_EMAIL_LIMIT + 1 }, (_, i) => ({ email: `dana.${i}@elsewhere.example` }));
      const res = await sim.call('POST', altBase('dana.whitfield@acme.example'), { body });
      expect([res.status, res.body.errorCode]).toEqual([400, 1330]);
      expect(sim.context.state.users.get(sim.userId('dana.whitfield@acme.example'))?.alternateEmails).toEqual([]);
      expect((await sim.call('POST', altBase('dana.whitfield@acme.example'), { body: body.slice(1) })).status).toBe(200);
    });

    it('refuses make-primary with 403/1186 while the primary address\'s domain is not validated', async () => {
      sim = createTestServer();
      const added = await addOne('jamie.fox@partner.example', 'jamie.fox@acme.example');
      const alt = (added.body.result as { id: number; confirmed: boolean }[])[0]!;
      expect(alt.confirmed).toBe(true);
      const res = await sim.call('POST', `${altBase('jamie.fox@partner.example')}/${alt.id}/makeprimary`);
      expect([res.status, res.body.errorCode]).toEqual([403, 1186]);
    });

    it('promotes an address on an unvalidated domain once its owner confirms it (/_sim)', async () => {
      sim = createTestServer();
      const added = await addOne('dana.whitfield@acme.example', 'dana@acme.io');
      const alt = (added.body.result as { id: number; confirmed: boolean }[])[0]!;
      expect(alt.confirmed).toBe(false);
      expect((await sim.call('POST', `${altBase('dana.whitfield@acme.example')}/${alt.id}/makeprimary`)).body.errorCode).toBe(1158);
      const confirmed = await sim.call('POST', '/_sim/alternateemails/confirm', { body: { email: 'Dana@acme.io' } });
      expect(confirmed.body).toMatchObject({ email: 'dana@acme.io', confirmed: true });
      expect((await sim.call('POST', `${altBase('dana.whitfield@acme.example')}/${alt.id}/makeprimary`)).status).toBe(200);
      expect(sim.context.mutations.list({ operation: 'confirmAlternateEmail' })).toHaveLength(1);
    });

    it('counts the addresses on a domain as confirmed once /_sim validates it for the plan', async () => {
      sim = createTestServer();
      const added = await addOne('dana.whitfield@acme.example', 'dana@acme.io');
      const alt = (added.body.result as { id: number }[])[0]!;
      const planId = [...sim.context.state.plans.values()][0]!.id;
      const validated = await sim.call('POST', `/_sim/plans/${planId}/domains`, { body: { domain: 'ACME.io' } });
      expect(validated.body.domains).toContain('acme.io');
      expect((await sim.call('GET', `${altBase('dana.whitfield@acme.example')}/${alt.id}`)).body.confirmed).toBe(true);
      expect((await addOne('jordan.lee@acme.example', 'jordan@acme.io')).body.result).toMatchObject([{ confirmed: true }]);
      const dropped = await sim.call('DELETE', `/_sim/plans/${planId}/domains/acme.io`);
      expect(dropped.body.domains).not.toContain('acme.io');
      expect((await sim.call('POST', '/_sim/alternateemails/confirm', { body: { email: 'nobody@acme.io' } })).status).toBe(404);
    });
  });
});
