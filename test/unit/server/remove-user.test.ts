import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('remove user', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  const sheetsOwnedBy = (id: number) => [...sim.context.state.sheets.values()].filter((s) => s.ownerId === id).map((s) => s.name);

  it('requires transferTo when the user owns groups (400 1108)', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/users/${sim.userId('priya.shah@acme.example')}`);
    expect([res.status, res.body.errorCode]).toEqual([400, 1108]);
    expect(sim.context.state.users.get(sim.userId('priya.shah@acme.example'))?.inOrg).toBe(true);
  });

  it('moves owned groups to transferTo given as a query parameter', async () => {
    sim = createTestServer();
    const dana = sim.userId('dana.whitfield@acme.example');
    const res = await sim.call('DELETE', `/users/${sim.userId('priya.shah@acme.example')}?transferTo=${dana}`);
    expect(res.status).toBe(200);
    const group = [...sim.context.state.groups.values()].find((g) => g.name === 'Data Platform');
    expect(group?.ownerId).toBe(dana);
  });

  it('accepts the options as a JSON body', async () => {
    sim = createTestServer();
    const dana = sim.userId('dana.whitfield@acme.example');
    const jordan = sim.userId('jordan.lee@acme.example');
    const res = await sim.call('DELETE', `/users/${jordan}`, { body: { transferTo: dana, transferSheets: true } });
    expect(res.status).toBe(200);
    expect(sheetsOwnedBy(dana)).toEqual(['Jordan – Q4 Pipeline', 'Jordan – Hiring Plan']);
  });

  it('moves sheets only with transferSheets=true', async () => {
    sim = createTestServer();
    const jordan = sim.userId('jordan.lee@acme.example');
    await sim.call('DELETE', `/users/${jordan}?transferTo=${sim.userId('dana.whitfield@acme.example')}`);
    expect(sheetsOwnedBy(jordan)).toHaveLength(2);
  });

  it('ignores transferSheets without transferTo and leaves read-only access', async () => {
    sim = createTestServer();
    const jordan = sim.userId('jordan.lee@acme.example');
    await sim.call('DELETE', `/users/${jordan}?transferSheets=True`);
    expect(sheetsOwnedBy(jordan)).toHaveLength(2);
    const pipeline = [...sim.context.state.sheets.values()].find((s) => s.name === 'Jordan – Q4 Pipeline')!;
    sim.context.state.tokens.set('jordan-token', { token: 'jordan-token', userId: jordan });
    const read = await sim.call('GET', `/sheets/${pipeline.id}/columns`, { token: 'jordan-token' });
    expect(read.status).toBe(200);
    const write = await sim.call('POST', `/sheets/${pipeline.id}/columns`, { token: 'jordan-token', body: [{ title: 'X', type: 'TEXT_NUMBER', index: 1 }] });
    expect(write.status).toBe(403);
  });

  it('removes the user from sharing only with removeFromSharing=true', async () => {
    sim = createTestServer();
    const marcus = sim.userId('marcus.chen@acme.example');
    const shared = () => [...sim.context.state.sheets.values()].filter((s) => s.sharing[String(marcus)] !== undefined).length;
    expect(shared()).toBeGreaterThan(0);
    await sim.call('DELETE', `/users/${marcus}?removeFromSharing=true`);
    expect(shared()).toBe(0);
  });

  it('keeps sharing when removeFromSharing is absent', async () => {
    sim = createTestServer();
    const marcus = sim.userId('marcus.chen@acme.example');
    await sim.call('DELETE', `/users/${marcus}`);
    expect(sim.context.state.sheets.get(DEMO.itAssetSheetId)?.sharing[String(marcus)]).toBe('COMMENTER');
  });

  it('hides the removed user from get and list', async () => {
    sim = createTestServer();
    const marcus = sim.userId('marcus.chen@acme.example');
    await sim.call('DELETE', `/users/${marcus}`);
    expect((await sim.call('GET', `/users/${marcus}`)).status).toBe(404);
    const list = await sim.call('GET', '/users?email=marcus.chen@acme.example');
    expect(list.body.totalCount).toBe(0);
  });

  it('is for System Admins only', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/users/${sim.userId('marcus.chen@acme.example')}`, { token: sim.tokens.user });
    expect([res.status, res.body.errorCode]).toEqual([403, 1004]);
  });

  it('refuses an unknown transfer target', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/users/${sim.userId('priya.shah@acme.example')}?transferTo=1111111111111111`);
    expect([res.status, res.body.errorCode]).toEqual([400, 1019]);
  });

  it('refuses to remove a user managed by an external source with 403 9002, naming the source (docs/service.md#externally-managed-users)', async () => {
    sim = createTestServer();
    const id = sim.userId('alex.kim@acme.example');
    const res = await sim.call('DELETE', `/users/${id}`);
    expect([res.status, res.body.errorCode]).toEqual([403, 9002]);
    expect(res.body.message).toMatch(/Okta/);
    expect(sim.context.state.users.get(id)?.inOrg).toBe(true);
  });
});
