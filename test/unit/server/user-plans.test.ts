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

  it('before the VIEWER sunset reports VIEWER, and CONTRIBUTOR with displayContributorSeatType', async () => {
    sim = createTestServer({ viewerSunset: '2099-01-01' });
    const plain = await plans('casey.nguyen@acme.example');
    const contributor = await plans('casey.nguyen@acme.example', '?displayContributorSeatType=TRUE');
    expect((plain.body.data as { seatType: string }[])[0]?.seatType).toBe('VIEWER');
    expect((contributor.body.data as { seatType: string }[])[0]?.seatType).toBe('CONTRIBUTOR');
  });

  it('past the VIEWER sunset reports the seat as CONTRIBUTOR whatever displayContributorSeatType says', async () => {
    sim = createTestServer({ now: '2026-11-02T00:00:00Z' });
    for (const query of ['', '?displayContributorSeatType=false', '?displayContributorSeatType=true']) {
      const res = await plans('casey.nguyen@acme.example', query);
      expect((res.body.data as { seatType: string }[])[0]?.seatType).toBe('CONTRIBUTOR');
    }
  });

  it('takes maxItems below 100 as 100 (its documented minimum)', async () => {
    sim = createTestServer();
    const res = await plans('noah.fischer@acme.example', '?maxItems=1');
    expect(res.body.data).toHaveLength(2);
    expect(res.body).not.toHaveProperty('lastKey');
  });

  it('pages by lastKey', async () => {
    const planIds = Array.from({ length: 130 }, (_, i) => 7000000000000001 + i);
    sim = createTestServer({
      data: {
        organization: { name: 'Many Plans' },
        plans: planIds.map((id, i) => ({ id, name: `Plan ${i}`, domains: ['many.example'] })),
        users: [
          { email: 'admin@many.example', admin: true },
          { email: 'wide@many.example', seats: planIds.map((planId) => ({ planId, seatType: 'MEMBER' })) },
        ],
        tokens: [{ token: 'many-admin', userEmail: 'admin@many.example' }],
      },
    });
    const wide = sim.userId('wide@many.example');
    const call = (query: string) => sim.call('GET', `/users/${wide}/plans${query}`, { token: 'many-admin' });
    const first = await call('?maxItems=100');
    expect(first.body.data).toHaveLength(100);
    expect(typeof first.body.lastKey).toBe('string');
    const second = await call(`?maxItems=100&lastKey=${String(first.body.lastKey)}`);
    expect((second.body.data as { planId: number }[]).map((p) => p.planId)).toEqual(planIds.slice(100));
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
