import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { SMTPServer } from 'smtp-server';
import { stepQueueNameOf, type StepJobData } from '../../src/workflow/step-job.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { governanceSchema } from '../../src/core/governance-config.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { createGovernance, type Governance } from '../../src/governance/governance.js';
import type { Delivery } from '../../src/governance/notifications/delivery-log.js';
import { verifySignature } from '../../src/governance/notifications/sign-webhook.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { startStubHttpServer, type RecordedRequest, type StubHttpServer } from '../helpers/stub-http-server.js';
import { createGovernanceHarness } from '../helpers/governance-harness.js';

const SECRET = 'the-shared-secret-of-ops';

let redis: TestRedis;
let handle: RedisHandle;
let receiver: StubHttpServer;
let dir: string;
/** Answers per path: the first `failFirst` calls of /flaky get 503, /refusing always 400, everything else 200. */
let flakyCalls = 0;

beforeAll(async () => {
  redis = await startTestRedis();
  dir = mkdtempSync(path.join(os.tmpdir(), 'sf-notify-'));
  handle = await openRedis({ url: redis.url, dataDir: dir, logger: createSilentLogger() });
  receiver = await startStubHttpServer((request) => {
    if (request.url.endsWith('/flaky')) return (flakyCalls += 1) <= 2 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
    if (request.url.endsWith('/refusing')) return { status: 400, body: 'no' };
    return { status: 200, body: 'ok' };
  });
});
afterAll(async () => {
  await handle?.close();
  await receiver?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function waitUntil<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function governanceWith(destinations: unknown[], extra: Record<string, unknown> = {}): Governance {
  return createGovernance({
    redis: handle,
    prefix: redis.prefix(),
    governance: governanceSchema.parse({ notifications: { destinations, maxAttempts: 4, baseDelayMs: 100, timeoutMs: 2000, dashboardUrl: 'https://seatflow.example.com', ...extra } }),
    target: 'sim:test',
    sim: true,
    logger: createSilentLogger(),
  });
}

const requestsTo = (suffix: string): RecordedRequest[] => receiver.requests.filter((request) => request.url.endsWith(suffix));

describe('notifications', { timeout: 60_000 }, () => {
  it('webhook deliveries are signed, retried with backoff and recorded, against a local receiver', async () => {
    const governance = governanceWith([{ name: 'ops', type: 'webhook', url: `${receiver.url}/flaky`, secret: SECRET, events: ['approval.needed'] }]);
    const worker = governance.startNotificationWorker();
    try {
      await governance.notifier.notify({ id: 'approval.needed:b0123456789ab:abc', type: 'approval.needed', title: 'Approval needed: batch b0123456789ab', text: 'alice asked for 12 changes.', path: '/approvals/b0123456789ab', data: { id: 'b0123456789ab', changes: 12 } });
      // The same event noticed again (another worker, a retried hook) is not sent twice.
      await governance.notifier.notify({ id: 'approval.needed:b0123456789ab:abc', type: 'approval.needed', title: 'again', text: 'again', data: {} });
      const deliveries = await waitUntil('the third try to arrive', async () => {
        const latest = await governance.deliveries.latest(10);
        return latest.some((delivery) => delivery.ok) ? latest : undefined;
      });
      const tries = requestsTo('/flaky');
      expect(tries).toHaveLength(3);
      for (const [i, request] of tries.entries()) {
        const body = request.body.toString('utf8');
        expect(verifySignature(SECRET, String(request.headers['seatflow-signature']), body)).toBe(true);
        expect(verifySignature('not-the-secret-at-all', String(request.headers['seatflow-signature']), body)).toBe(false);
        expect(request.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'seatflow-event': 'approval.needed', 'seatflow-event-id': 'approval.needed:b0123456789ab:abc', 'seatflow-attempt': String(i + 1) });
        expect(JSON.parse(body)).toMatchObject({ id: 'approval.needed:b0123456789ab:abc', type: 'approval.needed', title: 'Approval needed: batch b0123456789ab', url: 'https://seatflow.example.com/approvals/b0123456789ab', data: { changes: 12 } });
      }
      // One delivery id across its tries, so a receiver can tell a retry from a new event.
      expect(new Set(tries.map((request) => request.headers['seatflow-delivery'])).size).toBe(1);
      const recorded = [...deliveries].reverse().map((d: Delivery) => ({ attempt: d.attempt, ok: d.ok, status: d.status, willRetry: d.willRetry, destination: d.destination }));
      expect(recorded).toEqual([
        { attempt: 1, ok: false, status: 503, willRetry: true, destination: 'ops' },
        { attempt: 2, ok: false, status: 503, willRetry: true, destination: 'ops' },
        { attempt: 3, ok: true, status: 200, willRetry: false, destination: 'ops' },
      ]);
    } finally {
      await worker.close(2000);
      await governance.close();
    }
  });

  it('a refusal (HTTP 400) is recorded and not retried; Slack and Teams get their shapes; only subscribed events go out', async () => {
    const governance = governanceWith([
      { name: 'refusing', type: 'webhook', url: `${receiver.url}/refusing`, secret: SECRET, events: ['rows.failed'] },
      { name: 'chat', type: 'slack', url: `${receiver.url}/slack`, events: ['rows.failed'] },
      { name: 'teams', type: 'teams', url: `${receiver.url}/teams`, events: ['rows.failed', 'batch.finished'] },
    ]);
    const worker = governance.startNotificationWorker();
    try {
      await governance.notifier.notify({ id: 'rows.failed:b1:t', type: 'rows.failed', title: 'Batch b1: 1 failed, 0 unknown', text: 'row 6 deactivate alex.kim@acme.example: failed', data: {} });
      await governance.notifier.notify({ id: 'budget.paused:x:1', type: 'budget.paused', title: 'paused', text: 'paused', data: {} });
      const deliveries = await waitUntil('three deliveries', async () => {
        const latest = await governance.deliveries.latest(10);
        return latest.length >= 3 ? latest : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(requestsTo('/refusing')).toHaveLength(1);
      expect(deliveries.find((d) => d.destination === 'refusing')).toMatchObject({ ok: false, status: 400, willRetry: false, attempt: 1 });
      // No dashboard path in this event: no link block.
      expect(JSON.parse(requestsTo('/slack')[0]!.body.toString('utf8'))).toEqual({ text: 'Batch b1: 1 failed, 0 unknown', blocks: [expect.objectContaining({ type: 'header' }), expect.objectContaining({ type: 'section' })] });
      expect(JSON.parse(requestsTo('/teams')[0]!.body.toString('utf8'))).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }] });
      // budget.paused: nobody subscribed.
      expect((await governance.deliveries.latest(20)).filter((d) => d.eventType === 'budget.paused')).toEqual([]);
    } finally {
      await worker.close(2000);
      await governance.close();
    }
  });

  it('sends e-mail over plain SMTP to a local receiver', async () => {
    const messages: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          messages.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const governance = governanceWith([{ name: 'it', type: 'email', to: ['it-ops@acme.example'], events: ['batch.finished'] }], { smtp: { host: '127.0.0.1', port, from: 'seatflow@acme.example' } });
    const worker = governance.startNotificationWorker();
    try {
      await governance.notifier.notify({ id: 'batch.finished:b2:t', type: 'batch.finished', title: 'Batch b2 finished: 7 rows: 3 succeeded, 1 unchanged, 3 skipped', text: 'hr-offboarding.csv\n7 rows: 3 succeeded, 1 unchanged, 3 skipped.', path: '/batches/b2', data: {} });
      // Long header lines are folded (RFC 5322); unfold them to read each header on one line.
      const message = (await waitUntil('the e-mail', () => messages[0])).replace(/\r\n[ \t]+/g, ' ');
      expect(message).toMatch(/^Subject: \[seatflow\] Batch b2 finished: 7 rows: 3 succeeded, 1 unchanged, 3 skipped/m);
      expect(message).toMatch(/^To: it-ops@acme\.example/m);
      expect(message).toMatch(/^From: seatflow@acme\.example/m);
      expect(message).toContain('Open in seatflow: https://seatflow.example.com/batches/b2');
      // The receiver has the message before the sender hears its answer and records the delivery: wait for the record.
      const delivery = await waitUntil('the delivery record', async () => (await governance.deliveries.latest(5))[0]);
      expect(delivery).toMatchObject({ destination: 'it', destinationType: 'email', ok: true });
    } finally {
      await worker.close(2000);
      await governance.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('tells of offboarding steps due and not taken (a periodic look), and of repeated 429s once a minute', async () => {
    const governance = governanceWith([{ name: 'ops', type: 'webhook', url: `${receiver.url}/ops`, secret: SECRET, events: ['offboarding.step-overdue', 'budget.paused'] }], { stepOverdueMinutes: 1 });
    const worker = governance.startNotificationWorker({ sweepEveryMs: 200 });
    const target = 'https://api.smartsheet.com/2.0';
    const steps = new Queue<StepJobData>(stepQueueNameOf(target), { connection: handle.bullmqConnection(), prefix: governance.notifier.queue().opts.prefix! });
    try {
      // A step due 20 minutes ago that nobody took (no worker of this target runs), and one due tomorrow.
      const now = Date.now();
      await steps.add('deactivate', { workflowId: 'o0123456789ab', row: 3, step: 'deactivate', dueAt: now - 20 * 60_000 }, { jobId: 'o0123456789ab-3-deactivate' });
      await steps.add('remove', { workflowId: 'o0123456789ab', row: 4, step: 'remove', dueAt: now + 86_400_000 }, { jobId: 'o0123456789ab-4-remove', delay: 86_400_000 });
      await worker.watchSteps(governance.notifier, { id: target, sim: false });
      const overdue = await waitUntil('the overdue step', () => requestsTo('/ops').find((request) => request.headers['seatflow-event'] === 'offboarding.step-overdue'));
      expect(JSON.parse(overdue.body.toString('utf8'))).toMatchObject({ title: 'Offboarding step not taken: deactivate of row 3 (o0123456789ab)', data: { workflowId: 'o0123456789ab', row: 3, step: 'deactivate' } });
      // Later looks find the same step: it is told once.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(requestsTo('/ops').filter((request) => request.headers['seatflow-event'] === 'offboarding.step-overdue')).toHaveLength(1);

      const watch = governance.rateLimitWatch('a-token-of-this-target');
      for (let i = 0; i < 5; i += 1) watch(429);
      watch(200);
      const paused = await waitUntil('budget.paused', () => requestsTo('/ops').find((request) => request.headers['seatflow-event'] === 'budget.paused'));
      expect(JSON.parse(paused.body.toString('utf8'))).toMatchObject({ type: 'budget.paused', data: { rateLimited: 3 } });
      expect(paused.body.toString('utf8')).not.toContain('a-token-of-this-target');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(requestsTo('/ops').filter((request) => request.headers['seatflow-event'] === 'budget.paused')).toHaveLength(1);
    } finally {
      await worker.close(2000);
      await steps.obliterate({ force: true }).catch(() => undefined);
      await steps.close();
      await governance.close();
    }
  });

  it('tells subscribers a batch finished (with counts) and which rows failed, from the batch store', async () => {
    const g = await createGovernanceHarness(redis, {
      notifications: { destinations: [{ name: 'ops', type: 'webhook', url: `${receiver.url}/batches`, secret: SECRET, events: ['batch.finished', 'rows.failed'] }], baseDelayMs: 100 },
    });
    const worker = g.governance.startNotificationWorker();
    try {
      g.h.startWorkers();
      // alex.kim is managed by an identity provider: only the service refuses him, so his row fails.
      const plan = await g.h.plan(g.h.writeManifest('m.csv', ['email,action', 'marcus.chen@acme.example,deactivate', 'alex.kim@acme.example,deactivate', 'nobody.here@acme.example,deactivate']));
      const { batch } = await g.h.system.submit(plan);
      await g.h.waitForState(batch.id, ['finished']);
      const bodies = await waitUntil('both events', () => {
        const got = requestsTo('/batches').map((request) => JSON.parse(request.body.toString('utf8')) as { type: string; title: string; text: string; data: { counts?: Record<string, number> } });
        return got.length >= 2 ? got : undefined;
      });
      const finished = bodies.find((body) => body.type === 'batch.finished')!;
      expect(finished.title).toMatch(new RegExp(`Batch ${batch.id} finished: 3 rows: 1 succeeded, 1 skipped, 1 failed`));
      expect(finished.data.counts).toMatchObject({ succeeded: 1, failed: 1, skipped: 1 });
      const failed = bodies.find((body) => body.type === 'rows.failed')!;
      expect(failed.text).toMatch(/row 2 deactivate alex\.kim@acme\.example: failed/);
    } finally {
      await worker.close(2000);
      await g.close();
    }
  });
  // A serve whose port is taken closes its notification worker milliseconds after starting it. A plain worker.close()
  // then ended the process with an uncaught "Connection is closed" (BullMQ's version check answered by the closed
  // socket, emitted where the close had removed every listener), exit 1 with a stack trace instead of exit 2.
  it('closes the notification worker at any moment of its start without an uncaught "Connection is closed"', async () => {
    const governance = governanceWith([]);
    try {
      for (let i = 0; i < 80; i += 1) {
        const worker = governance.startNotificationWorker();
        // From "just created" to "just ready": the moment of the version check is somewhere in between.
        await new Promise((resolve) => setTimeout(resolve, (i % 40) / 10));
        await worker.close(1000);
        expect(worker.worker.closing).toBeDefined();
      }
    } finally {
      await governance.close();
    }
  });
});
