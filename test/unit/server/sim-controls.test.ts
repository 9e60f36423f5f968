import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startReferenceServer, type RunningReferenceServer } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('sim controls, rate limit and faults', () => {
  let sim: TestServer | undefined;
  let running: RunningReferenceServer | undefined;
  afterEach(async () => {
    await sim?.app.close();
    await running?.close();
    sim = undefined;
    running = undefined;
  });

  it('answers 429 4003 with Retry-After when a token exceeds its budget', async () => {
    sim = createTestServer({ rateLimit: { requests: 2, perSeconds: 60 } });
    await sim.call('GET', '/users/me');
    await sim.call('GET', '/users/me');
    const limited = await sim.call('GET', '/users/me');
    expect([limited.status, limited.body.errorCode]).toEqual([429, 4003]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await sim.call('GET', '/users/me', { token: sim.tokens.user })).status).toBe(200);
    sim.clock.advance(60_000);
    expect((await sim.call('GET', '/users/me')).status).toBe(200);
  });

  it('injects 503 4001 faults but never on /_sim', async () => {
    sim = createTestServer({ faults: '503:1' });
    const res = await sim.call('GET', '/users/me');
    expect([res.status, res.body.errorCode]).toEqual([503, 4001]);
    expect((await sim.call('GET', '/_sim/clock')).status).toBe(200);
  });

  it('applies the change before answering 500 with 500-after', async () => {
    sim = createTestServer({ faults: '500-after:1' });
    const id = sim.userId('marcus.chen@acme.example');
    const res = await sim.call('POST', `/users/${id}/deactivate`);
    expect(res.status).toBe(500);
    expect(sim.context.state.users.get(id)?.status).toBe('DEACTIVATED');
    expect(sim.mutations.list({ userId: id })).toHaveLength(1);
  });

  it('cuts the connection after the change with reset-after', async () => {
    running = await startReferenceServer({ faults: 'reset-after:1', users: 0 });
    const id = running.context.state.usersByEmail.get('marcus.chen@acme.example')!;
    await expect(fetch(`${running.url}/users/${id}/deactivate`, { method: 'POST', headers: { authorization: `Bearer ${running.tokens.admin}` } })).rejects.toThrow();
    expect(running.context.state.users.get(id)?.status).toBe('DEACTIVATED');
  });

  it('changes faults, rate limit and clock through /_sim', async () => {
    sim = createTestServer();
    expect((await sim.call('PUT', '/_sim/faults', { body: { spec: '500:1', seed: 3 } })).status).toBe(200);
    expect((await sim.call('GET', '/users/me')).status).toBe(500);
    await sim.call('DELETE', '/_sim/faults');
    expect((await sim.call('PUT', '/_sim/faults', { body: { spec: 'bogus:2' } })).status).toBe(400);
    await sim.call('PUT', '/_sim/rate-limit', { body: { rateLimit: '1/60' } });
    await sim.call('GET', '/users/me');
    expect((await sim.call('GET', '/users/me')).status).toBe(429);
    // The bucket is set apart from the refill: 60 a minute, but only 2 at once.
    const limited = await sim.call('PUT', '/_sim/rate-limit', { body: { requests: 60, perSeconds: 60, bucket: 2 } });
    expect(limited.body.rateLimit).toEqual({ requests: 60, perSeconds: 60, bucket: 2 });
    expect([(await sim.call('GET', '/users/me')).status, (await sim.call('GET', '/users/me')).status, (await sim.call('GET', '/users/me')).status]).toEqual([200, 200, 429]);
    await sim.call('PUT', '/_sim/rate-limit', { body: { rateLimit: 'off' } });
    const clock = await sim.call('POST', '/_sim/clock', { body: { now: '2030-01-01T00:00:00Z' } });
    expect(String(clock.body.now)).toMatch(/^2030-01-01/);
  });

  it('refuses a clock move to no valid time and keeps the clock', async () => {
    sim = createTestServer({ now: '2030-01-01T00:00:00Z' });
    expect((await sim.call('POST', '/_sim/clock', { body: { advanceMs: 'soon' } })).status).toBe(400);
    expect((await sim.call('POST', '/_sim/clock', { body: { advanceDays: 1e12 } })).status).toBe(400);
    const clock = await sim.call('GET', '/_sim/clock');
    expect([clock.status, String(clock.body.now).slice(0, 10)]).toEqual([200, '2030-01-01']);
    expect((await sim.call('POST', '/_sim/clock', { body: { advanceDays: 2 } })).body.now).toMatch(/^2030-01-03/);
  });

  it('filters the mutation log and resets the state', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    await sim.call('POST', `/users/${id}/deactivate`);
    await sim.call('POST', `/users/${sim.userId('casey.nguyen@acme.example')}/plans/5420192837465012/upgrade`);
    const log = await sim.call('GET', `/_sim/mutations?userId=${id}`);
    expect(log.body.totalCount).toBe(1);
    expect((log.body.data as { operation: string }[])[0]?.operation).toBe('deactivateUser');
    await sim.call('POST', '/_sim/reset');
    expect(sim.context.state.users.get(id)?.status).toBe('ACTIVE');
    expect(sim.mutations.size()).toBe(0);
  });

  it('logs every API request with its query and status, readable through /_sim/requests', async () => {
    sim = createTestServer();
    await sim.call('GET', '/2.0/users?pageSize=2001');
    await sim.call('GET', '/users?email=dana.whitfield@acme.example&pageSize=5');
    const log = await sim.call('GET', '/_sim/requests?operation=listUsers');
    const data = log.body.data as { query: Record<string, string>; status: number; path: string }[];
    expect(data.map((entry) => [entry.path, entry.query.pageSize, entry.status])).toEqual([['/2.0/users', '2001', 400], ['/users', '5', 200]]);
    expect(sim.requests.list().some((entry) => entry.path.startsWith('/_sim'))).toBe(false);
    await sim.call('DELETE', '/_sim/requests');
    expect(sim.requests.list()).toHaveLength(0);
  });

  it('answers /_sim to the admin token on loopback only', async () => {
    sim = createTestServer();
    expect((await sim.call('GET', '/_sim/clock', { token: sim.tokens.user })).status).toBe(403);
    expect((await sim.call('GET', '/_sim/clock', { token: null })).status).toBe(401);
    const remote = await sim.app.inject({ method: 'GET', url: '/_sim/clock', remoteAddress: '10.1.2.3', headers: { authorization: `Bearer ${sim.tokens.admin}` } });
    expect(remote.statusCode).toBe(403);
  });

  it('loads the example fixture', async () => {
    sim = createTestServer();
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/server/small-org.json', import.meta.url), 'utf8')) as unknown;
    expect((await sim.call('POST', '/_sim/load', { body: fixture })).status).toBe(200);
    const users = await sim.call('GET', '/users', { token: 'fixture-admin-token' });
    expect(users.body.totalCount).toBe(4);
    expect((await sim.call('POST', '/_sim/load', { body: { plans: [] } })).status).toBe(400);
  });
});
