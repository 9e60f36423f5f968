import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('reference server wire', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());

  it('serves under /2.0 and the root, any literal case, trailing slash', async () => {
    sim = createTestServer();
    for (const path of ['/2.0/users/me', '/users/me', '/2.0/USERS/ME', '/2.0/users/me/']) {
      expect((await sim.call('GET', path)).status).toBe(200);
    }
  });

  it('answers 401 1001 without a token and 1002 with an unknown one', async () => {
    sim = createTestServer();
    const none = await sim.call('GET', '/users', { token: null });
    const bad = await sim.call('GET', '/users', { token: 'nope' });
    expect([none.status, none.body.errorCode, bad.status, bad.body.errorCode]).toEqual([401, 1001, 401, 1002]);
    expect(typeof bad.body.refId).toBe('string');
  });

  it('answers 404 1006 for an unknown route and 405 1122 for a wrong method', async () => {
    sim = createTestServer();
    expect((await sim.call('GET', '/2.0/nothing')).body.errorCode).toBe(1006);
    const wrong = await sim.call('PUT', '/2.0/webhooks');
    expect([wrong.status, wrong.body.errorCode]).toEqual([405, 1122]);
  });

  it('answers 400 1008 for malformed JSON and 415 1124 for another media type', async () => {
    sim = createTestServer();
    const json = await sim.call('POST', '/users', { headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    const text = await sim.call('POST', '/users', { headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    expect([json.status, json.body.errorCode, text.status, text.body.errorCode]).toEqual([400, 1008, 415, 1124]);
  });

  it('refuses an oversized body', async () => {
    sim = createTestServer({ jsonBodyLimitBytes: 1000 });
    const res = await sim.call('POST', '/users', { body: { email: 'a@acme.example', pad: 'x'.repeat(2000) } });
    expect(res.status).toBe(400);
  });

  it('takes Content-Type: application/json on bodiless calls and a stray id in bodies', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    expect((await sim.call('GET', `/users/${id}`, { headers: { 'content-type': 'application/json' } })).status).toBe(200);
    expect((await sim.call('POST', `/users/${id}/deactivate`, { headers: { 'content-type': 'application/json' }, payload: '' })).status).toBe(200);
    const json = { 'content-type': 'application/json' };
    const plan = `/users/${sim.userId('noah.fischer@acme.example')}/plans/${DEMO.labsPlanId}`;
    expect((await sim.call('DELETE', plan, { headers: json, payload: '' })).status).toBe(200);
    expect((await sim.call('DELETE', `/users/${id}/alternateemails/1`, { headers: json })).status).toBe(404);
    expect((await sim.call('PUT', `/users/${id}`, { headers: json, payload: '' })).status).toBe(200);
    const put = await sim.call('PUT', `/users/${id}`, { body: { id: 42, firstName: 'Marc' } });
    expect(put.body.result).toMatchObject({ id, firstName: 'Marc' });
  });

  it('pages: past the end gives the last page, includeAll leaves pageSize out', async () => {
    sim = createTestServer();
    const last = await sim.call('GET', '/users?pageSize=10&page=999');
    expect(last.body.pageNumber).toBe(last.body.totalPages);
    const all = await sim.call('GET', `/sheets/${DEMO.apolloSheetId}/columns?includeAll=TRUE`);
    expect(all.body).not.toHaveProperty('pageSize');
    expect((all.body.data as unknown[]).length).toBe(all.body.totalCount);
  });

  it('answers GET /users/{id} with lastLogin to an admin without any include, and not to others (docs/service.md#get-user)', async () => {
    sim = createTestServer();
    const id = sim.userId('marcus.chen@acme.example');
    const admin = await sim.call('GET', `/users/${id}`);
    expect(typeof admin.body.lastLogin).toBe('string');
    const user = await sim.call('GET', `/users/${id}`, { token: sim.tokens.user });
    expect(user.body).not.toHaveProperty('lastLogin');
  });

  it('answers GET /users/me of a System Admin with lastLogin, and of anyone else without (docs/service.md#get-user)', async () => {
    sim = createTestServer();
    expect(typeof (await sim.call('GET', '/users/me')).body.lastLogin).toBe('string');
    expect((await sim.call('GET', '/users/me', { token: sim.tokens.user })).body).not.toHaveProperty('lastLogin');
  });

  it('carries every profile field on get user and get current user, empty when unset, as the shared recordings do', async () => {
    sim = createTestServer();
    const fields = ['company', 'department', 'title', 'role', 'workPhone', 'mobilePhone'];
    for (const path of ['/users/me', `/users/${sim.userId('jordan.lee@acme.example')}`]) {
      const { body } = await sim.call('GET', path);
      expect(fields.map((field) => typeof body[field])).toEqual(fields.map(() => 'string'));
    }
    expect((await sim.call('GET', `/users/${sim.userId('jordan.lee@acme.example')}`)).body.mobilePhone).toBe('');
  });

  it('finds users by a comma list of e-mails in any case', async () => {
    sim = createTestServer();
    const res = await sim.call('GET', '/users?email=DANA.WHITFIELD@acme.example,nobody@acme.example,jordan.lee@acme.example');
    expect((res.body.data as { email: string }[]).map((u) => u.email)).toEqual(['dana.whitfield@acme.example', 'jordan.lee@acme.example']);
  });

  it('writes epoch milliseconds with numericDates=true', async () => {
    sim = createTestServer();
    const iso = await sim.call('GET', '/webhooks');
    const num = await sim.call('GET', '/webhooks?numericDates=true');
    expect(typeof (iso.body.data as { createdAt: unknown }[])[0]?.createdAt).toBe('string');
    expect(typeof (num.body.data as { createdAt: unknown }[])[0]?.createdAt).toBe('number');
  });

  it('shows admin-only attributes to admins only, and no status on /users/me', async () => {
    sim = createTestServer();
    const asUser = await sim.call('GET', `/users/${sim.userId('marcus.chen@acme.example')}`, { token: sim.tokens.user });
    expect(asUser.body).not.toHaveProperty('status');
    const asAdmin = await sim.call('GET', `/users/${sim.userId('marcus.chen@acme.example')}`);
    expect(asAdmin.body.status).toBe('ACTIVE');
    expect((await sim.call('GET', '/users/me')).body).not.toHaveProperty('status');
  });

  it('adds a user, refuses a duplicate, and issues 16-digit safe ids', async () => {
    sim = createTestServer();
    const res = await sim.call('POST', '/users?sendEmail=True', { body: { email: 'new.hire@acme.example', firstName: 'New', lastName: 'Hire', licensedSheetCreator: true, admin: false } });
    const user = res.body.result as { id: number; status: string; seatType: string };
    expect(String(user.id)).toMatch(/^\d{16}$/);
    expect(Number.isSafeInteger(user.id)).toBe(true);
    expect([user.status, user.seatType]).toEqual(['ACTIVE', 'PROVISIONAL_MEMBER']);
    const dup = await sim.call('POST', '/users', { body: { email: 'new.hire@acme.example' } });
    expect([dup.status, dup.body.errorCode]).toEqual([403, 1016]);
  });

  it('uploads a profile image of at most 1 MB as raw bytes', async () => {
    sim = createTestServer();
    const url = `/users/${sim.userId('marcus.chen@acme.example')}/profileimage`;
    const ok = await sim.call('POST', url, { headers: { 'content-type': 'image/png' }, payload: Buffer.alloc(2048, 1) });
    expect((ok.body.result as { profileImage: { imageId: string } }).profileImage.imageId).toBeTruthy();
    const big = await sim.call('POST', url, { headers: { 'content-type': 'image/png' }, payload: Buffer.alloc(1024 * 1024 + 10, 1) });
    expect([big.status, big.body.errorCode]).toEqual([400, 1128]);
    const svg = await sim.call('POST', url, { headers: { 'content-type': 'image/svg+xml' }, payload: '<svg/>' });
    expect(svg.status).toBe(415);
  });

  it('lists the sheets the caller can see', async () => {
    sim = createTestServer();
    const admin = await sim.call('GET', '/sheets');
    const dana = await sim.call('GET', '/sheets', { token: sim.tokens.user });
    expect((admin.body.data as { name: string }[]).map((s) => s.name)).toContain('Jordan – Q4 Pipeline');
    expect((dana.body.data as { name: string }[]).map((s) => s.name)).not.toContain('Jordan – Q4 Pipeline');
  });
});
