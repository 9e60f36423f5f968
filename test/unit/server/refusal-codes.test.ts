import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

/**
 * docs/service.md#refusal-codes: every refusal answers with the real status and code (docs/service.md#error-codes), undocumented ones with 403
 * and the server's own 9001–9099. Lifecycle and seat refusals are in their own files; these are the rest.
 */
describe('refusal codes of the reference server', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('refuses to remove a user who has left the organization with 403 1022 (an unknown id stays 404)', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    expect((await sim.call('DELETE', `/users/${id}`)).status).toBe(200);
    const again = await sim.call('DELETE', `/users/${id}`);
    expect([again.status, again.body.errorCode]).toEqual([403, 1022]);
    const unknown = await sim.call('DELETE', '/users/1234567890123456');
    expect([unknown.status, unknown.body.errorCode]).toEqual([404, 1006]);
  });

  it('refuses a transfer to a user outside the organization with 403 1021 and changes nothing', async () => {
    sim = createTestServer();
    const gone = sim.userId('marcus.chen@acme.example');
    await sim.call('DELETE', `/users/${gone}`);
    const priya = sim.userId('priya.shah@acme.example');
    const res = await sim.call('DELETE', `/users/${priya}?transferTo=${gone}`);
    expect([res.status, res.body.errorCode]).toEqual([403, 1021]);
    expect(sim.context.state.users.get(priya)?.inOrg).toBe(true);
  });

  it('refuses to remove yourself with 403 1047', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/users/${sim.userId('admin@acme.example')}`);
    expect([res.status, res.body.errorCode]).toEqual([403, 1047]);
  });

  it('refuses to add an existing member with 403 1016', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', '/users', { body: { email: 'marcus.chen@acme.example' } });
    expect([res.status, res.body.errorCode]).toEqual([403, 1016]);
  });

  it('answers a non-admin token with 403 1004', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/users/${sim.userId('marcus.chen@acme.example')}`, { token: sim.tokens.user });
    expect([res.status, res.body.errorCode]).toEqual([403, 1004]);
  });

  it('never answers a refusal with a documented code of another meaning (1356, 1357) or 400 for eligibility', async () => {
    sim = createTestServer();
    const refusals = [
      await sim.call('POST', `/users/${sim.userId('alex.kim@acme.example')}/deactivate`),
      await sim.call('POST', `/users/${sim.userId('jamie.fox@partner.example')}/deactivate`),
      await sim.call('POST', `/users/${sim.userId('morgan.price@acme.example')}/reactivate`),
      await sim.call('POST', `/users/${sim.userId('elena.garcia@acme.example')}/plans/${DEMO.planId}/downgrade`, { body: { seatType: 'GUEST' } }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBeGreaterThanOrEqual(9001);
      expect(res.body.errorCode).toBeLessThanOrEqual(9099);
      expect(typeof res.body.refId).toBe('string');
    }
  });
});

describe('seatType filter and the VIEWER sunset', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('past the sunset refuses seatType=VIEWER (400 1018) and lists the seat under CONTRIBUTOR', async () => {
    sim = createTestServer({ now: '2026-11-02T00:00:00Z' });
    const viewer = await sim.call('GET', `/users?planId=${DEMO.planId}&seatType=VIEWER`);
    expect([viewer.status, viewer.body.errorCode]).toEqual([400, 1018]);
    const contributor = await sim.call('GET', `/users?planId=${DEMO.planId}&seatType=contributor`);
    const emails = (contributor.body.data as { email: string; seatType: string }[]).map((u) => [u.email, u.seatType]);
    expect(emails).toContainEqual(['casey.nguyen@acme.example', 'CONTRIBUTOR']);
    const me = await sim.call('GET', `/users/${sim.userId('casey.nguyen@acme.example')}`);
    expect(me.body.seatType).toBe('CONTRIBUTOR');
  });

  it('before the sunset filters by VIEWER and reports VIEWER', async () => {
    sim = createTestServer({ viewerSunset: '2099-01-01' });
    const viewer = await sim.call('GET', `/users?planId=${DEMO.planId}&seatType=VIEWER`);
    expect(viewer.status).toBe(200);
    expect((viewer.body.data as { email: string; seatType: string }[]).find((u) => u.email === 'casey.nguyen@acme.example')?.seatType).toBe('VIEWER');
  });
});

describe('smaller wire differences (issue 8, point 4)', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('GET /sheets carries owner and ownerId only with include=ownerInfo', async () => {
    sim = createTestServer();
    const plain = await sim.call('GET', '/sheets');
    const first = (plain.body.data as Record<string, unknown>[])[0];
    expect(first).not.toHaveProperty('owner');
    expect(first).not.toHaveProperty('ownerId');
    const withOwner = await sim.call('GET', '/sheets?include=ownerInfo');
    expect((withOwner.body.data as Record<string, unknown>[])[0]).toMatchObject({ owner: 'admin@acme.example', ownerId: sim.userId('admin@acme.example') });
  });

  it('an empty formula removes the column formula instead of keeping ""', async () => {
    sim = createTestServer();
    const sheet = sim.context.state.sheets.get(DEMO.itAssetSheetId)!;
    const url = `/sheets/${sheet.id}/columns/${sheet.columns.find((c) => c.title === 'Notes')!.id}`;
    expect((await sim.call('PUT', url, { body: { formula: '=[Asset Tag]@row' } })).body.result).toMatchObject({ formula: '=[Asset Tag]@row' });
    const cleared = await sim.call('PUT', url, { body: { formula: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result).not.toHaveProperty('formula');
    expect((await sim.call('GET', url)).body).not.toHaveProperty('formula');
    const added = await sim.call('POST', `/sheets/${sheet.id}/columns`, { body: [{ title: 'Plain', type: 'TEXT_NUMBER', index: 1, formula: '' }] });
    expect((added.body.result as Record<string, unknown>[])[0]).not.toHaveProperty('formula');
  });
});
