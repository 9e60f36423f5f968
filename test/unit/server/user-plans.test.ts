import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('list user plans', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const plans = (email: string, query = '') => sim.call('GET', `/2.0/users/${sim.userId(email)}/plans${query}`);

  it.each(['PLAN_NAME', 'planName', 'planNames', 'plan_name'])('reports planName with include=%s', async (include) => {
    sim = createTestServer();
    const res = await plans('noah.fischer@acme.example', `?include=${include}`);
    expect((res.body.data as { planName?: string }[]).map((p) => p.planName)).toEqual(['Acme Corp', 'Acme Labs']);
  });

  it('leaves planName out without include', async () => {
    sim = createTestServer();
    const res = await plans('noah.fischer@acme.example');
    expect((res.body.data as object[])[0]).not.toHaveProperty('planName');
    expect(res.body).not.toHaveProperty('lastKey');
  });

  it('serves a stale plan name until the cache entry expires', async () => {
    sim = createTestServer({ planNameCacheTtlMs: 60_000 });
    await plans('marcus.chen@acme.example', '?include=PLAN_NAME');
    const rename = await sim.call('PUT', `/_sim/plans/${DEMO.planId}`, { body: { name: 'Acme Holdings' } });
    expect(rename.status).toBe(200);
    const stale = await plans('marcus.chen@acme.example', '?include=PLAN_NAME');
    expect((stale.body.data as { planName: string }[])[0]?.planName).toBe('Acme Corp');
    sim.clock.advance(61_000);
    const fresh = await plans('marcus.chen@acme.example', '?include=PLAN_NAME');
    expect((fresh.body.data as { planName: string }[])[0]?.planName).toBe('Acme Holdings');
  });

  it('reports VIEWER as CONTRIBUTOR with displayContributorSeatType', async () => {
    sim = createTestServer();
    const plain = await plans('casey.nguyen@acme.example');
    const contributor = await plans('casey.nguyen@acme.example', '?displayContributorSeatType=TRUE');
    expect((plain.body.data as { seatType: string }[])[0]?.seatType).toBe('VIEWER');
    expect((contributor.body.data as { seatType: string }[])[0]?.seatType).toBe('CONTRIBUTOR');
  });

  it('pages by lastKey', async () => {
    sim = createTestServer();
    const first = await plans('noah.fischer@acme.example', '?maxItems=1');
    expect(first.body.data).toHaveLength(1);
    expect(typeof first.body.lastKey).toBe('string');
    const second = await plans('noah.fischer@acme.example', `?maxItems=1&lastKey=${String(first.body.lastKey)}`);
    expect((second.body.data as { planId: number }[])[0]?.planId).toBe(DEMO.labsPlanId);
    expect(second.body).not.toHaveProperty('lastKey');
  });

  it('removes a user from a plan', async () => {
    sim = createTestServer();
    const res = await sim.call('DELETE', `/2.0/users/${sim.userId('noah.fischer@acme.example')}/plans/${DEMO.labsPlanId}`);
    expect(res.status).toBe(200);
    expect((await plans('noah.fischer@acme.example')).body.data).toHaveLength(1);
    const again = await sim.call('DELETE', `/2.0/users/${sim.userId('noah.fischer@acme.example')}/plans/${DEMO.labsPlanId}`);
    expect(again.status).toBe(404);
  });

  it('reports CONTRIBUTOR in list users too', async () => {
    sim = createTestServer();
    const res = await sim.call('GET', `/users?email=casey.nguyen@acme.example&displayContributorSeatType=true&planId=${DEMO.planId}&seatType=CONTRIBUTOR`);
    expect((res.body.data as { seatType: string }[]).map((u) => u.seatType)).toEqual(['CONTRIBUTOR']);
  });
});
