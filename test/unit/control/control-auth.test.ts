import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { adminApi, auth, controlDeps, createCapturingLogger, TOKEN } from './control-test-deps.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('control API auth', () => {
  it('answers 401 with a JSON error and WWW-Authenticate when no token is sent', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/v1/batches' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'no bearer token', hint: expect.stringContaining('SEATFLOW_CONTROL_TOKEN') } });
  });

  it('answers 401 when the token is wrong or sent with another scheme', async () => {
    app = buildControlApp(controlDeps());
    for (const authorization of ['Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json().error.message).toBe('the bearer token is not valid');
    }
  });

  it('refuses an unauthenticated manifest before reading its body', async () => {
    const deps = controlDeps();
    app = buildControlApp(deps);
    const response = await app.inject({ method: 'POST', url: '/v1/batches', headers: { 'content-type': 'text/csv' }, payload: 'email,action\na@acme.example,deactivate\n' });
    expect(response.statusCode).toBe(401);
    expect((deps.batches as unknown as { calls: string[] }).calls).toEqual([]);
  });

  it('lets the right token through', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/v1/batches', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ batches: [] });
  });

  it('answers /healthz and /readyz without a token', async () => {
    app = buildControlApp(controlDeps({ api: adminApi() }));
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { redis: { ok: true }, target: { ok: true } } });
    const detailed = await app.inject({ method: 'GET', url: '/readyz', headers: auth });
    expect(detailed.json()).toEqual({ status: 'ready', checks: { redis: { ok: true }, target: { ok: true, checkedAt: expect.any(String) } } });
  });

  it('asks for a token on unknown paths too, and names the endpoints once authenticated', async () => {
    app = buildControlApp(controlDeps());
    expect((await app.inject({ method: 'GET', url: '/v1/secrets' })).statusCode).toBe(401);
    const response = await app.inject({ method: 'GET', url: '/v1/secrets', headers: auth });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'no endpoint GET /v1/secrets', hint: expect.stringContaining('POST /v1/plans') });
  });

  it('never writes the token to the log, whether it is right or wrong', async () => {
    const { logger, lines } = createCapturingLogger();
    app = buildControlApp(controlDeps({ logger }));
    await app.inject({ method: 'GET', url: '/v1/batches', headers: auth });
    await app.inject({ method: 'GET', url: '/v1/batches', headers: { authorization: 'Bearer a-wrong-token-value' } });
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('');
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain('a-wrong-token-value');
  });

  it('refuses to build with a token shorter than 32 characters', () => {
    expect(() => buildControlApp(controlDeps({ token: 'x'.repeat(31) }))).toThrow(/at least 32 characters/);
  });
});
