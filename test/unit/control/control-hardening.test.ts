import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../../src/client/api-error.js';
import { createSmartsheetClient } from '../../../src/client/create-smartsheet-client.js';
import { startStubHttpServer } from '../../helpers/stub-http-server.js';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { startControlServer } from '../../../src/control/start-control-server.js';
import { adminApi, auth, controlDeps } from './control-test-deps.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const csv = 'email,action\nmarcus.chen@acme.example,deactivate\n';

describe('control API against web pages', () => {
  it('refuses the bodies any page can post cross-site without asking (text/plain, forms) with 415', async () => {
    const deps = controlDeps();
    app = buildControlApp(deps);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const response = await app.inject({ method: 'POST', url: '/v1/batches?confirm=true', headers: { ...auth, 'content-type': type }, payload: csv });
      expect(response.statusCode, type).toBe(415);
      expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect((deps.batches as unknown as { calls: string[] }).calls).toEqual([]);
  });

  it('refuses a foreign Origin with 403 even with the right token, before reading the body', async () => {
    const deps = controlDeps();
    app = buildControlApp(deps);
    const response = await app.inject({ method: 'POST', url: '/v1/batches', headers: { ...auth, origin: 'https://evil.example', 'content-type': 'text/csv' }, payload: csv });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'FORBIDDEN_ORIGIN', hint: expect.stringContaining('allowedOrigins') });
    expect((deps.batches as unknown as { calls: string[] }).calls).toEqual([]);
    const crossSite = await app.inject({ method: 'GET', url: '/v1/batches', headers: { ...auth, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
  });

  it('accepts its own origin and a configured one', async () => {
    app = buildControlApp(controlDeps({ http: { allowedOrigins: ['https://ops.example.com'] } }));
    const own = await app.inject({ method: 'GET', url: '/v1/batches', headers: { ...auth, host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' } });
    expect(own.statusCode).toBe(200);
    const configured = await app.inject({ method: 'GET', url: '/v1/batches', headers: { ...auth, origin: 'https://ops.example.com' } });
    expect(configured.statusCode).toBe(200);
  });

  it('on loopback, answers only to loopback host names or configured ones (DNS rebinding)', async () => {
    app = buildControlApp(controlDeps({ http: { bindHost: '127.0.0.1', allowedHosts: ['seatflow.internal'] } }));
    const rebound = await app.inject({ method: 'GET', url: '/v1/batches', headers: { ...auth, host: 'evil.example:8080' } });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json().error.code).toBe('FORBIDDEN_HOST');
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:8080', 'seatflow.internal:8080']) {
      expect((await app.inject({ method: 'GET', url: '/v1/batches', headers: { ...auth, host } })).statusCode, host).toBe(200);
    }
  });

  it('sends security headers (CSP without any CDN, no framing, no sniffing)', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/v1/batches', headers: auth });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('answers 429 with Retry-After past the request rate limit, and never limits the health probes', async () => {
    app = buildControlApp(controlDeps({ api: adminApi(), http: { rateLimit: { max: 3, perSeconds: 60 } } }));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await app.inject({ method: 'GET', url: '/v1/batches', headers: auth })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await app.inject({ method: 'GET', url: '/v1/batches', headers: auth });
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 5; i += 1) expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('accepts bodies up to 10 MiB by default and answers 413 above', async () => {
    app = buildControlApp(controlDeps());
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
    const response = await app.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: big });
    expect(response.statusCode).toBe(413);
  });
});

describe('a forged Origin over a real socket (as curl sends it)', () => {
  it('cannot drive /v1: 403, and the same request from no browser (no Origin) is served', async () => {
    const deps = controlDeps();
    const server = await startControlServer({ deps, host: '127.0.0.1', port: 0 });
    try {
      const forged = await fetch(`${server.url}/v1/batches?confirm=true`, { method: 'POST', headers: { ...auth, origin: 'https://evil.example', 'content-type': 'text/csv' }, body: csv });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN_ORIGIN');
      const noToken = await fetch(`${server.url}/v1/batches`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: csv });
      expect(noToken.status).toBe(401);
      expect((deps.batches as unknown as { calls: string[] }).calls).toEqual([]);
      expect((await fetch(`${server.url}/v1/batches`, { headers: auth })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('/readyz', () => {
  it('checks the token against the target and remembers the answer for a while', async () => {
    const api = adminApi();
    app = buildControlApp(controlDeps({ api, readyCacheMs: 60_000 }));
    for (let i = 0; i < 3; i += 1) expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(api.checks).toBe(1);
  });

  it('is not ready when the target refuses the token or it is not a System Admin, and says why only to the token', async () => {
    app = buildControlApp(controlDeps({ api: adminApi(async () => ({ admin: false, email: 'dana@acme.example' })) }));
    const response = await app.inject({ method: 'GET', url: '/readyz', headers: auth });
    expect(response.statusCode).toBe(503);
    expect(response.json().checks.target).toMatchObject({ ok: false, message: expect.stringContaining('not a System Admin') });
    // A probe without the token learns ready or not, and which check failed: not the account the token acts for.
    const anonymous = await app.inject({ method: 'GET', url: '/readyz' });
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json()).toEqual({ status: 'not ready', checks: { redis: { ok: true }, target: { ok: false } } });
    expect(anonymous.body).not.toContain('dana@acme.example');
  });
});

describe('a plan whose target answers 503', () => {
  it('answers 503 with Retry-After within the plan deadline instead of hanging', async () => {
    // A client that keeps the caller waiting as a retrying client would against a service that stays busy.
    const never = new Promise<never>(() => undefined);
    const busy = { users: { list: () => never, listAll: () => never, get: () => never, getCurrent: () => never }, plans: { list: () => never } };
    const proxy = new Proxy(busy, { get: (target, key) => (target as Record<string | symbol, unknown>)[key] ?? new Proxy({}, { get: () => () => never }) });
    app = buildControlApp(controlDeps({ api: proxy as never, planTimeoutMs: 1000 }));
    const started = Date.now();
    const response = await app.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv });
    expect(response.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json().error).toMatchObject({ code: 'TARGET_ERROR', retryAfterSeconds: 30, hint: expect.stringContaining('Nothing was queued') });
  });

  it('bounds a client that retries a service answering 503 for ten minutes', async () => {
    const service = await startStubHttpServer(() => ({ status: 503, headers: { 'retry-after': '1' }, body: { errorCode: 4001, message: 'busy', refId: 'r1' } }));
    const api = createSmartsheetClient({ baseUrl: service.url, accessToken: 'a-token', retry: { maxAttempts: 100, maxElapsedMs: 600_000, baseDelayMs: 200, maxDelayMs: 1000 } });
    try {
      app = buildControlApp(controlDeps({ api, planTimeoutMs: 2500 }));
      const started = Date.now();
      const response = await app.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv });
      expect(response.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(service.requests.length).toBeGreaterThan(1);
    } finally {
      await api.close();
      await service.close();
    }
  });

  it('passes the service Retry-After on when the pre-flight ends in a 503', async () => {
    const refuse = async () => {
      throw new ServiceUnavailableError({ operation: 'users.list', status: 503, message: 'busy', retryAfterMs: 7000 } as never);
    };
    const proxy = new Proxy({}, { get: () => new Proxy({}, { get: () => refuse }) });
    app = buildControlApp(controlDeps({ api: proxy as never }));
    const response = await app.inject({ method: 'POST', url: '/v1/plans', headers: { ...auth, 'content-type': 'text/csv' }, payload: csv });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
  });
});
