import { createServer, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

const BEFORE = '2026-01-15T00:00:00Z';
const AFTER = '2026-07-01T00:00:00Z';

describe('webhooks', () => {
  let sim: TestServer;
  let subscriber: Server | undefined;
  afterEach(async () => {
    await sim.app.close();
    await new Promise<void>((resolve) => (subscriber ? subscriber.close(() => resolve()) : resolve()));
    subscriber = undefined;
  });

  const create = (name: string, token?: string, url = 'https://hooks.acme.example/x') =>
    sim.call('POST', '/webhooks', { token, body: { name, callbackUrl: url, scope: 'sheet', scopeObjectId: DEMO.itAssetSheetId, events: ['*.*'], version: 1 } });

  async function seedThree(): Promise<void> {
    for (const name of ['b-hook', 'c-hook', 'a-hook']) {
      await create(name);
      sim.clock.advance(60_000);
    }
  }

  it('lists by name with real totals and honours includeAll before the sunset', async () => {
    sim = createTestServer({ now: BEFORE });
    await seedThree();
    const page = await sim.call('GET', '/webhooks?pageSize=2');
    expect(page.body).toMatchObject({ totalCount: 4, totalPages: 2, pageSize: 2 });
    const all = await sim.call('GET', '/webhooks?includeAll=true');
    expect((all.body.data as { name: string }[]).map((w) => w.name)).toEqual(['a-hook', 'Asset register changes', 'b-hook', 'c-hook']);
    expect(all.body).not.toHaveProperty('pageSize');
  });

  it('lists newest first with -1 totals, ignores includeAll and caps pageSize from the sunset', async () => {
    sim = createTestServer({ now: AFTER });
    await seedThree();
    const res = await sim.call('GET', '/webhooks?includeAll=true&pageSize=20000');
    expect(res.body).toMatchObject({ totalCount: -1, totalPages: -1, pageSize: 10000 });
    expect((res.body.data as { name: string }[]).map((w) => w.name)).toEqual(['a-hook', 'c-hook', 'b-hook', 'Asset register changes']);
  });

  it('switches behaviour when the sim clock crosses the sunset', async () => {
    sim = createTestServer({ now: BEFORE });
    expect((await sim.call('GET', '/webhooks')).body.totalCount).toBe(1);
    await sim.call('POST', '/_sim/clock', { body: { now: AFTER } });
    expect((await sim.call('GET', '/webhooks')).body.totalCount).toBe(-1);
  });

  it('lists the webhooks of a user token or of an app token', async () => {
    sim = createTestServer({ now: BEFORE });
    await create('dana-hook', sim.tokens.user);
    const names = async (token: string) => ((await sim.call('GET', '/webhooks', { token })).body.data as { name: string }[]).map((w) => w.name);
    expect(await names(sim.tokens.admin)).toEqual(['Asset register changes']);
    expect(await names(sim.tokens.user)).toEqual(['dana-hook']);
    expect(await names(sim.tokens.app)).toEqual(['HR Sync seat changes']);
    const app = (await sim.call('GET', '/webhooks', { token: sim.tokens.app })).body.data as { apiClientName: string }[];
    expect(app[0]?.apiClientName).toBe('Acme HR Sync');
  });

  it('creates webhooks disabled and refuses http callbacks outside loopback (1152)', async () => {
    sim = createTestServer();
    const res = await create('x');
    expect(res.body.result).toMatchObject({ enabled: false, status: 'NEW_NOT_VERIFIED' });
    const http = await create('y', undefined, 'http://hooks.acme.example/x');
    expect([http.status, http.body.errorCode]).toEqual([400, 1152]);
  });

  it('answers an unknown scope object with 400 1151 (docs/service.md#webhooks)', async () => {
    sim = createTestServer();
    const sheet = await sim.call('POST', '/webhooks', { body: { name: 'x', callbackUrl: 'https://hooks.acme.example/x', scope: 'sheet', scopeObjectId: 1234567890123456, events: ['*.*'], version: 1 } });
    expect([sheet.status, sheet.body.errorCode]).toEqual([400, 1151]);
    const plan = await sim.call('POST', '/webhooks', { body: { name: 'x', callbackUrl: 'https://hooks.acme.example/x', scope: 'plan', scopeObjectId: 1234567890123456, events: ['*.*'], version: 1 } });
    expect([plan.status, plan.body.errorCode]).toEqual([400, 1151]);
  });

  it('fails verification for a non-loopback URL without calling it', async () => {
    sim = createTestServer();
    const id = ((await create('x')).body.result as { id: number }).id;
    const res = await sim.call('PUT', `/webhooks/${id}`, { body: { enabled: true } });
    expect(res.body.result).toMatchObject({ enabled: false, status: 'DISABLED_VERIFICATION_FAILED' });
  });

  it('runs the verification handshake against a loopback subscriber, signed with the shared secret', async () => {
    sim = createTestServer();
    const seen: { signature?: string; body?: string } = {};
    subscriber = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        seen.signature = req.headers['smartsheet-hmac-sha256'] as string;
        seen.body = text;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ smartsheetHookResponse: req.headers['smartsheet-hook-challenge'] }));
      });
    });
    await new Promise<void>((resolve) => subscriber!.listen(0, '127.0.0.1', resolve));
    const port = (subscriber.address() as { port: number }).port;
    const created = (await create('local', undefined, `http://127.0.0.1:${port}/hook`)).body.result as { id: number; sharedSecret: string };
    const res = await sim.call('PUT', `/webhooks/${created.id}`, { body: { enabled: true } });
    expect(res.body.result).toMatchObject({ enabled: true, status: 'ENABLED' });
    expect(JSON.parse(seen.body!)).toMatchObject({ webhookId: created.id });
    expect(seen.signature).toBe(createHmac('sha256', created.sharedSecret).update(seen.body!).digest('hex'));
  });

  it('fails verification when the subscriber does not echo the challenge', async () => {
    sim = createTestServer();
    subscriber = createServer((_req, res) => res.writeHead(200).end('{}'));
    await new Promise<void>((resolve) => subscriber!.listen(0, '127.0.0.1', resolve));
    const port = (subscriber.address() as { port: number }).port;
    const id = ((await create('local', undefined, `http://127.0.0.1:${port}/`)).body.result as { id: number }).id;
    const res = await sim.call('PUT', `/webhooks/${id}`, { body: { enabled: true } });
    expect(res.body.result).toMatchObject({ status: 'DISABLED_VERIFICATION_FAILED' });
  });

  it('resets the shared secret (any path case) and hides others\' webhooks', async () => {
    sim = createTestServer();
    const created = (await create('x')).body.result as { id: number; sharedSecret: string };
    const res = await sim.call('POST', `/webhooks/${created.id}/resetSharedSecret`);
    expect((res.body.result as { sharedSecret: string }).sharedSecret).not.toBe(created.sharedSecret);
    expect((await sim.call('GET', `/webhooks/${created.id}`, { token: sim.tokens.user })).status).toBe(404);
    expect((await sim.call('DELETE', `/webhooks/${created.id}`)).status).toBe(200);
  });
});
