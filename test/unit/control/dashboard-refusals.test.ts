import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import type { ControlOffboardingDeps } from '../../../src/control/control-deps.js';
import { batchRecord, controlDeps, createCapturingLogger, createFakeBatches, TOKEN } from './control-test-deps.js';
import { csrfOf, getPage, postForm, signIn } from './dashboard-sign-in.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Every optional part present, so that every route of the server is registered. */
function fullDeps(logger?: ReturnType<typeof createCapturingLogger>['logger']) {
  const offboarding = { system: {}, config: { guardrails: { maxRows: 1000 }, offboarding: { defaultHoldDays: 7 } } } as unknown as ControlOffboardingDeps;
  const schedules = { list: async () => [], runNow: async () => undefined };
  const budget = { counters: async () => ({ calls: 0, rateLimited: 0 }), pausedFor: async () => 0, state: async () => ({ level: 0, capacity: 300, ratePerSecond: 5, pausedForMs: 0 }) };
  return controlDeps({ ...(logger === undefined ? {} : { logger }), offboarding, schedules, budget: { budget, rate: { requests: 300, perSeconds: 60, headroom: 0.02, burst: 'auto' } } });
}

/** The routes of an app, as fastify registered them, with sample values for their parameters. */
function routesOf(instance: FastifyInstance): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  instance.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url: route.url.replace(':id', 'b0123456789ab').replace(':previewId', 'p1').replace(':name', 'weekly').replace('*', 'x') });
    }
  });
  return routes;
}

describe('requests refused by the Host/Origin guard', () => {
  it('get 403 with the reason on every route, as a page or as JSON, and never a 500 or a logged error', async () => {
    const { logger, lines } = createCapturingLogger();
    app = buildControlApp(fullDeps(logger));
    const routes = routesOf(app);
    await app.ready();
    expect(routes.length).toBeGreaterThan(35);
    for (const route of routes) {
      for (const [headers, reason] of [
        [{ host: 'evil.example:8080' }, 'does not answer to the host name "evil.example"'],
        [{ host: '127.0.0.1:8080', origin: 'https://evil.example' }, 'requests from the origin https://evil.example are refused'],
        [{ host: '127.0.0.1:8080', 'sec-fetch-site': 'cross-site' }, 'cross-site requests are refused'],
      ] as const) {
        const response = await app.inject({ method: route.method as 'GET', url: route.url, headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
        expect(response.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(403);
        // The reason as a page (HTML-escaped) or as JSON (quotes escaped) says it.
        expect(response.body.replaceAll('&quot;', '"').replaceAll('\\"', '"'), `${route.method} ${route.url}`).toContain(reason);
      }
    }
    expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('shows a dashboard page refused for its origin as a page that says so, without the navigation of a session', async () => {
    app = buildControlApp(fullDeps());
    const jar = await signIn(app);
    const response = await app.inject({ method: 'POST', url: '/batches/b0123456789ab/cancel', headers: { cookie: jar.header(), origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: '_csrf=x' });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<h1>Refused</h1>');
    expect(response.body).not.toContain('Sign out');
  });
});

describe('dashboard sessions', () => {
  it('end on the server when signing out: a copy of the cookie is then worth nothing', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const copied = jar.header();
    const page = await getPage(app, jar, '/batches');
    expect(page.statusCode).toBe(200);
    const out = await postForm(app, jar, '/logout', { _csrf: csrfOf(page.body) });
    expect(out.statusCode).toBe(303);
    const replayed = await app.inject({ method: 'GET', url: '/batches', headers: { cookie: copied } });
    expect(replayed.statusCode).toBe(303);
    expect(replayed.headers.location).toBe('/login?next=%2Fbatches');
  });

  it('bind CSRF tokens to the session: a token of an earlier session is refused in the next one, in the same browser', async () => {
    const batches = createFakeBatches([batchRecord()]);
    app = buildControlApp(controlDeps({ batches }));
    const jar = await signIn(app);
    const first = csrfOf((await getPage(app, jar, '/batches/b0123456789ab/cancel')).body);
    const out = await postForm(app, jar, '/logout', { _csrf: first });
    expect(out.statusCode).toBe(303);
    // Signed in again in the same browser: the CSRF cookie is the same, the session is not.
    const form = await getPage(app, jar, '/login');
    const again = await postForm(app, jar, '/login', { _csrf: csrfOf(form.body), token: TOKEN, next: '/batches' });
    expect(again.statusCode).toBe(303);
    const stale = await postForm(app, jar, '/batches/b0123456789ab/cancel', { _csrf: first });
    expect(stale.statusCode).toBe(403);
    expect(batches.calls).not.toContain('cancel b0123456789ab by control-token (dashboard)');
    const fresh = csrfOf((await getPage(app, jar, '/batches/b0123456789ab/cancel')).body);
    expect((await postForm(app, jar, '/batches/b0123456789ab/cancel', { _csrf: fresh })).statusCode).toBe(303);
    expect(batches.calls).toContain('cancel b0123456789ab by control-token (dashboard)');
  });
});

describe('what a signed-in browser asks for besides pages', () => {
  it('gets the 404 page for a path nothing answers; a stranger learns nothing', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const missing = await getPage(app, jar, '/no/such/page?x=1');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
    expect(missing.body).toContain('<h1>Page not found</h1>');
    expect(missing.body).toContain('Nothing here answers /no/such/page.');
    expect(missing.body).toContain('Sign out');
    const stranger = await app.inject({ method: 'GET', url: '/no/such/page' });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.body).not.toContain('Page not found');
  });

  it('gets /favicon.ico without signing in', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/x-icon');
    expect(response.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  });
});
