import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createAuditLog } from '../../src/governance/audit/audit-log.js';
import type { AuditEntry } from '../../src/governance/audit/audit-entry.js';
import { createEventKeys } from '../../src/events/event-keys.js';
import { createSubscriptionStore } from '../../src/events/subscription-store.js';
import { createQueueKeys } from '../../src/queue/queue-keys.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ROOT, runSeatflow } from '../helpers/run-seatflow.js';
import { startStubHttpServer, type StubHttpServer } from '../helpers/stub-http-server.js';

/**
 * The service's events end to end (docs/events.md): a reference server, `seatflow serve --workers 1` as a process,
 * `seatflow webhooks subscribe`, then changes made "in the Admin Center" through /_sim/outside-change.
 */
const CONTROL_TOKEN = 'control-token-of-the-events-test-0123456789';

let redis: TestRedis;
let handle: RedisHandle;
let server: RunningReferenceServer;
let receiver: StubHttpServer;
let serve: ChildProcess;
let serveUrl: string;
let dir: string;
let prefix: string;
let env: NodeJS.ProcessEnv;

async function waitUntil<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function sim(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.origin}/_sim${route}`, { method, headers: { authorization: `Bearer ${server.tokens.admin}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return (await response.json()) as Record<string, unknown>;
}

async function auditEntries(): Promise<AuditEntry[]> {
  const log = createAuditLog(handle.client, createQueueKeys(prefix));
  return (await log.latest(1000)).map((stored) => JSON.parse(stored.raw) as AuditEntry).reverse();
}
const outsideOf = async (email: string) => (await auditEntries()).filter((entry) => entry.event === 'change.outside' && entry.subject === email);

beforeAll(async () => {
  redis = await startTestRedis();
  prefix = redis.prefix();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-events-'));
  handle = await openRedis({ url: redis.url, dataDir: dir, logger: createSilentLogger() });
  // Retries a few hundred ms apart: a callback refused during a rotation comes again soon.
  server = await startReferenceServer({ rateLimit: 'off', users: 40, callbackDebounceMs: 50, callbackRetryDelaysMs: [300, 600, 1200, 2400, 4800, 9600] });
  receiver = await startStubHttpServer(() => ({ status: 200, body: 'ok' }));
  // The policy: Casey's seat comes from the HR file, CONTRIBUTOR; a change elsewhere that gives another is drift.
  writeFileSync(path.join(dir, 'seats.csv'), 'email,seat\ncasey.nguyen@acme.example,CONTRIBUTOR\n');
  writeFileSync(path.join(dir, 'seats-policy.json'), JSON.stringify({ planId: 5420192837465012, rules: [{ name: 'HR seats', when: { inFile: 'seats.csv' }, then: { seatFromColumn: 'seat' } }], onDrift: 'reconcile' }));
  writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      control: { token: CONTROL_TOKEN },
      worker: { concurrency: 2, lockDurationMs: 2000, stalledIntervalMs: 1000, shutdownGraceMs: 2000 },
      rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 },
      retry: { maxAttempts: 6, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 1000 },
      events: { policies: [path.join(dir, 'seats-policy.json')], rotationGraceMinutes: 10 },
      governance: { notifications: { baseDelayMs: 100, destinations: [{ name: 'it-ops', type: 'webhook', url: `${receiver.url.replace(/\/2\.0$/, '')}/drift`, secret: 'a-secret-of-it-ops-0123', events: ['drift.detected'] }] } },
    }),
  );
  env = {
    REDIS_URL: redis.url,
    SEATFLOW_QUEUE_PREFIX: prefix,
    SMARTSHEET_API_BASE: server.url,
    SMARTSHEET_ACCESS_TOKEN: server.tokens.admin,
    SEATFLOW_HOME: path.join(dir, 'home'),
    SEATFLOW_CONFIG: path.join(dir, 'config.json'),
    SEATFLOW_LOG_LEVEL: 'warn',
  };
  serve = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'serve', '--workers', '1', '--port', '0'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  serveUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /dashboard: (http:\/\/[^/\s]+)\//.exec(out)?.[1];
      if (url !== undefined) resolve(url);
    });
    serve.once('exit', (code) => reject(new Error(`seatflow serve exited with ${code}: ${out}`)));
  });
  const subscribed = await runSeatflow(['webhooks', 'subscribe', '--url', `${serveUrl}/hooks/smartsheet`], env);
  if (subscribed.code !== 0) throw new Error(`subscribe failed: ${subscribed.stderr}${subscribed.stdout}`);
}, 240_000);

afterAll(async () => {
  if (serve !== undefined && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  await receiver?.close();
  await handle?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the service\'s events on seatflow serve (docs/events.md)', () => {
  it('sees an Admin Center seat change within seconds: the audit entry, the drift notification and the reconciling batch', async () => {
    const casey = (await sim('POST', '/outside-change', { user: 'casey.nguyen@acme.example', change: 'seat', seatType: 'MEMBER' })).mutation as { userId: number };
    const [entry] = await waitUntil('the audit entry', async () => {
      const found = await outsideOf('casey.nguyen@acme.example');
      return found.length > 0 ? found : undefined;
    });
    expect(entry).toMatchObject({ actor: 'elena.garcia@acme.example', data: { event: 'user.seatType.updated', seatType: 'MEMBER', why: 'another-user' } });
    const drift = await waitUntil('the drift notification', async () => receiver.requests.find((request) => request.headers['seatflow-event'] === 'drift.detected'));
    const message = JSON.parse(drift.body.toString()) as { data: { seatNow: string; seatWanted: string; reconciled?: { queued?: string } } };
    expect(message.data).toMatchObject({ seatNow: 'MEMBER', seatWanted: 'CONTRIBUTOR' });
    expect(message.data.reconciled?.queued).toMatch(/^b/);
    // The reconciling batch ran through the usual queue: the service downgraded Casey back.
    await waitUntil('the reconciling downgrade', async () => {
      const log = (await sim('GET', `/mutations?userId=${casey.userId}&operation=downgradeUser`)).data as unknown[];
      return log.length > 0 ? log : undefined;
    });
    // seatflow's own downgrade comes back as an event too: told seatflow's, it is no second outside change.
    await waitUntil('the downgrade event handled', async () => {
      const counters = await handle.client.hgetall(createEventKeys(prefix, server.url).counters);
      return Number(counters['events.seatflow'] ?? 0) >= 1 ? counters : undefined;
    });
    expect(await outsideOf('casey.nguyen@acme.example')).toHaveLength(1);
  }, 180_000);

  it('refuses a callback with a bad signature, an old timestamp or a replayed nonce, and changes nothing', async () => {
    const subscription = (await createSubscriptionStore(handle.client, createEventKeys(prefix, server.url)).get())!;
    const now = Date.parse(String((await sim('GET', '/clock')).now));
    const jordan = (await fetch(`${server.url}/users?email=jordan.lee@acme.example`, { headers: { authorization: `Bearer ${server.tokens.admin}` } }).then((r) => r.json())) as { data: { id: number }[] };
    const body = (nonce: string, at: number) =>
      JSON.stringify({ nonce, timestamp: new Date(at).toISOString(), webhookId: subscription.webhookId, scope: 'plan', scopeObjectId: subscription.planId, events: [{ objectType: 'user', eventType: 'deactivated', id: jordan.data[0]!.id, userId: 4242, timestamp: new Date(at).toISOString(), email: 'jordan.lee@acme.example' }] });
    const post = (raw: string, secret: string) =>
      fetch(`${serveUrl}/hooks/smartsheet`, { method: 'POST', headers: { 'content-type': 'application/json', 'smartsheet-hmac-sha256': createHmac('sha256', secret).update(raw).digest('hex') }, body: raw });
    const before = (await auditEntries()).length;
    expect((await post(body('forged-1', now), 'not-the-secret')).status).toBe(401);
    expect((await post(body('old-1', now - 3_600_000), subscription.secret)).status).toBe(400);
    const genuine = body('genuine-1', now);
    expect((await post(genuine, subscription.secret)).status).toBe(200);
    expect((await post(genuine, subscription.secret)).status).toBe(409);
    await waitUntil('the genuine callback handled', async () => ((await outsideOf('jordan.lee@acme.example')).length > 0 ? true : undefined));
    // One entry: the genuine callback's. The refused ones left nothing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const added = (await auditEntries()).slice(before);
    expect(added.filter((entry) => entry.event === 'change.outside')).toHaveLength(1);
  }, 120_000);

  it('loses no event when the shared secret is rotated mid-stream', async () => {
    const users = ((await fetch(`${server.url}/users?planId=5420192837465012&seatType=MEMBER&pageSize=100`, { headers: { authorization: `Bearer ${server.tokens.admin}` } }).then((r) => r.json())) as { data: { email: string; admin?: boolean }[] }).data
      .filter((user) => user.admin !== true && /\.\d{3}@acme\.example$/.test(user.email))
      .slice(0, 8)
      .map((user) => user.email);
    expect(users).toHaveLength(8);
    const rotation = runSeatflow(['webhooks', 'rotate'], env);
    for (const email of users) {
      await sim('POST', '/outside-change', { user: email, change: 'seat', seatType: 'PROVISIONAL_MEMBER', provisionalDays: 20 });
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect((await rotation).code).toBe(0);
    await sim('POST', '/outside-change', { user: users[0], change: 'seat', seatType: 'MEMBER' });
    for (const email of users) await waitUntil(`the change of ${email}`, async () => ((await outsideOf(email)).length > 0 ? true : undefined));
    await waitUntil('the change after the rotation', async () => ((await outsideOf(users[0]!)).length === 2 ? true : undefined));
    const status = await runSeatflow(['webhooks', 'status', '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ subscribed: true, webhook: { status: 'ENABLED' } });
    expect(JSON.parse(status.stdout).rotatedAt).toBeDefined();
    // What the events said of Provisional Members is what `seatflow provisional` shows.
    const provisional = JSON.parse((await runSeatflow(['provisional', '--json'], env)).stdout) as { seats: { email: string }[] };
    expect(provisional.seats.map((seat) => seat.email)).toEqual(expect.arrayContaining(users.slice(1)));
    expect(provisional.seats.map((seat) => seat.email)).not.toContain(users[0]);
  }, 240_000);
});
