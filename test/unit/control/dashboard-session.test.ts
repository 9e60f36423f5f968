import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../../src/control/build-control-app.js';
import { batchRecord, controlDeps, createFakeBatches, TOKEN } from './control-test-deps.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The cookies a response sets, as one Cookie header, merged over `jar`. */
function cookiesOf(response: LightMyRequestResponse, jar: Record<string, string> = {}): Record<string, string> {
  for (const cookie of response.cookies) jar[cookie.name] = cookie.value;
  return jar;
}
const header = (jar: Record<string, string>) => Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
const csrfOf = (body: string) => /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';

async function signIn(instance: FastifyInstance): Promise<Record<string, string>> {
  const form = await instance.inject({ method: 'GET', url: '/login' });
  const jar = cookiesOf(form);
  const response = await instance.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: header(jar), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrfOf(form.body), token: TOKEN, next: '/batches' }).toString(),
  });
  expect(response.statusCode).toBe(303);
  return cookiesOf(response, jar);
}

describe('dashboard sign-in', () => {
  it('sends a page without a session to the sign-in form, keeping where it was going', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/batches' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=%2Fbatches');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie that does not hold the token, and never puts the token in a URL', async () => {
    app = buildControlApp(controlDeps());
    const form = await app.inject({ method: 'GET', url: '/login' });
    const jar = cookiesOf(form);
    const response = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { cookie: header(jar), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrfOf(form.body), token: TOKEN, next: '/batches' }).toString(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/batches');
    const session = response.cookies.find((cookie) => cookie.name === 'seatflow_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(session?.value).not.toContain(TOKEN);
    const page = await app.inject({ method: 'GET', url: '/batches', headers: { cookie: header(cookiesOf(response, jar)) } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Batches</h1>');
    expect(page.body).not.toContain(TOKEN);
  });

  it('refuses a wrong token, a sign-in without its CSRF token, and a session cookie not signed by this server', async () => {
    app = buildControlApp(controlDeps());
    const form = await app.inject({ method: 'GET', url: '/login' });
    const jar = cookiesOf(form);
    const post = (fields: Record<string, string>) =>
      app!.inject({ method: 'POST', url: '/login', headers: { cookie: header(jar), 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    const wrong = await post({ _csrf: csrfOf(form.body), token: 'x'.repeat(40) });
    // Refused, back to the form (post, redirect, get), which says so with 401; no session.
    expect(wrong.statusCode).toBe(303);
    expect(wrong.cookies.find((cookie) => cookie.name === 'seatflow_session')).toBeUndefined();
    const again = await app.inject({ method: 'GET', url: String(wrong.headers.location), headers: { cookie: header(jar) } });
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain('not the control token of this server');
    expect((await post({ token: TOKEN })).statusCode).toBe(403);
    const forged = await app.inject({ method: 'GET', url: '/batches', headers: { cookie: `seatflow_session=s1.99999999999999` } });
    expect(forged.statusCode).toBe(303);
  });

  it('sends a person only to a path of this server after sign-in', async () => {
    app = buildControlApp(controlDeps());
    for (const next of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const form = await app.inject({ method: 'GET', url: '/login' });
      const jar = cookiesOf(form);
      const response = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { cookie: header(jar), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrfOf(form.body), token: TOKEN, next }).toString(),
      });
      expect(response.headers.location, next).toBe('/batches');
    }
  });

  it('never lets the session cookie drive /v1 (a cross-site page can make a browser send cookies, not headers)', async () => {
    app = buildControlApp(controlDeps());
    const jar = await signIn(app);
    const response = await app.inject({ method: 'GET', url: '/v1/batches', headers: { cookie: header(jar) } });
    expect(response.statusCode).toBe(401);
  });
});

describe('dashboard forms', () => {
  it('cancels only with the CSRF token of the confirmation page', async () => {
    const batches = createFakeBatches([batchRecord()]);
    app = buildControlApp(controlDeps({ batches }));
    const jar = await signIn(app);
    const confirm = await app.inject({ method: 'GET', url: '/batches/b0123456789ab/cancel', headers: { cookie: header(jar) } });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Yes, cancel the batch');
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie: header(cookiesOf(confirm, jar)) };
    const without = await app.inject({ method: 'POST', url: '/batches/b0123456789ab/cancel', headers: form, payload: '' });
    expect(without.statusCode).toBe(403);
    expect(batches.calls).not.toContain('cancel b0123456789ab by control-token (dashboard)');
    const done = await app.inject({ method: 'POST', url: '/batches/b0123456789ab/cancel', headers: form, payload: `_csrf=${encodeURIComponent(csrfOf(confirm.body))}` });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toMatch(/^\/batches\/b0123456789ab\?done=[0-9a-f]{32}$/);
    expect(batches.calls).toContain('cancel b0123456789ab by control-token (dashboard)');
  });

  it('escapes what manifests and the service wrote when it shows them', async () => {
    app = buildControlApp(controlDeps({ batches: createFakeBatches([batchRecord({ source: '<script>alert(1)</script>.csv' })]) }));
    const jar = await signIn(app);
    const page = await app.inject({ method: 'GET', url: '/batches', headers: { cookie: header(jar) } });
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('live parts of a page', () => {
  it('send the whole page to the sign-in form when the session ended, instead of swapping the form into the part', async () => {
    app = buildControlApp(controlDeps());
    const response = await app.inject({ method: 'GET', url: '/batches/live', headers: { 'hx-request': 'true' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['hx-redirect']).toBe('/login');
  });
});
