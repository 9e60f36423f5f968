import { afterEach, describe, expect, it } from 'vitest';
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
});
