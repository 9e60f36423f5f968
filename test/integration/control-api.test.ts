import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildControlApp } from '../../src/control/build-control-app.js';
import type { ControlDeps } from '../../src/control/control-deps.js';
import { startControlServer, type RunningControlServer } from '../../src/control/start-control-server.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { createBatchSystem } from '../../src/queue/batch-system.js';
import { openRedis } from '../../src/queue/redis/open-redis.js';
import { REPORT_COLUMNS } from '../../src/queue/report-writer.js';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import { createBatchHarness, type BatchHarness } from '../helpers/batch-harness.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let harness: BatchHarness;
let control: RunningControlServer;
const token = randomBytes(24).toString('hex');

beforeAll(async () => {
  redis = await startTestRedis();
  harness = await createBatchHarness(redis, { rateLimit: 'off' });
  const deps: ControlDeps = {
    logger: createSilentLogger(),
    token,
    target: { label: `SIMULATION: ${harness.server.url}`, id: harness.server.url, configured: true, sim: true },
    guardrails: { destructiveMaxCount: 25, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1000 },
    api: harness.api,
    rate: { requests: 300, perSeconds: 60 },
    batches: { system: harness.system, api: harness.api, redis: harness.redisHandle.client },
    redisTimeoutMs: 2000,
  };
  harness.startWorkers({ concurrency: 4 });
  control = await startControlServer({ deps, host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await control?.close();
  await harness?.close();
  await redis?.stop();
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${control.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });

async function waitForEnd(batchId: string): Promise<{ state: string; counts: Record<string, number>; progress: { done: number; total: number } }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const batch = (await (await call(`/v1/batches/${batchId}`)).json()) as { state: string; counts: Record<string, number>; progress: { done: number; total: number } };
    if (batch.state === 'finished' || Date.now() > deadline) return batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('control API with Redis, workers and the reference server', () => {
  it('submits a manifest, finds it again, runs it to the end and streams one outcome per row', async () => {
    const emails = await harness.deactivatableEmails(5);
    const lines = ['email,action', ...emails.map((e) => `${e},deactivate`), 'taylor.brooks@acme.example,deactivate', 'sam.taylor@gmail.com,deactivate', 'nobody.here@acme.example,deactivate'];
    const manifest = `${lines.join('\n')}\n`;
    const post = () => call('/v1/batches?name=offboarding.csv', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: manifest });

    const first = await post();
    expect(first.status).toBe(202);
    const submitted = (await first.json()) as { batchId: string; created: boolean; jobsAdded: number; plan?: { rows: { row: number; verdict: string; target: { userId?: number } }[] } };
    expect(submitted).toMatchObject({ created: true, jobsAdded: 5 });
    // The answer carries the plan it queued, row by row: what the caller was promised.
    expect(submitted.plan?.rows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(submitted.plan?.rows.filter((row) => row.verdict === 'change').map((row) => row.row)).toEqual([1, 2, 3, 4, 5]);
    expect(submitted.plan?.rows.slice(0, 5).every((row) => typeof row.target.userId === 'number')).toBe(true);
    const again = await post();
    expect(again.status).toBe(200);
    const existing = (await again.json()) as Record<string, unknown>;
    expect(existing).toMatchObject({ batchId: submitted.batchId, created: false, existing: true, jobsAdded: 0 });
    // Nothing was planned again for a batch that exists: no plan to show. The rows it was queued to change are shown
    // as they were planned then (a caller whose first try was cut off learns what that try queued).
    expect(existing.plan).toBeUndefined();
    const queuedRows = existing.queuedRows as { row: number; verdict: string; actionName: string; target: { userId?: number } }[];
    expect(queuedRows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5]);
    expect(queuedRows).toEqual(submitted.plan?.rows.slice(0, 5));

    // `seatflow submit` of the same bytes finds the same batch: the API and the CLI share batch ids.
    const viaCli = await harness.system.submit(await harness.plan(harness.writeManifest('offboarding.csv', lines)), { options: { skipInvalid: false } });
    expect(viaCli).toMatchObject({ created: false, jobsAdded: 0, batch: { id: submitted.batchId } });

    const batch = await waitForEnd(submitted.batchId);
    expect(batch.state).toBe('finished');
    expect(batch.counts).toEqual({ succeeded: 5, unchanged: 1, skipped: 2, failed: 0, unknown: 0, cancelled: 0 });
    expect(batch.progress).toMatchObject({ done: 8, total: 8 });

    const jsonl = await call(`/v1/batches/${submitted.batchId}/outcomes?format=jsonl`);
    expect(jsonl.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const outcomes = (await jsonl.text()).trimEnd().split('\n').map((line) => JSON.parse(line) as RowOutcome);
    expect(outcomes.map((o) => o.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded', 'unchanged', 'skipped', 'skipped']);

    const csv = await call(`/v1/batches/${submitted.batchId}/outcomes?format=csv`);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${submitted.batchId}-simulation.csv"`);
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0] ?? {})).toEqual([...REPORT_COLUMNS]);
    expect(records.map((r) => [r.email, r.outcome])).toEqual(outcomes.map((o) => [o.email, o.outcome]));

    const deactivations = (await harness.mutations()).filter((m) => m.operation.toLowerCase().includes('deactivate'));
    expect(deactivations).toHaveLength(5);

    const listed = (await (await call('/v1/batches')).json()) as { batches: { id: string }[] };
    expect(listed.batches.map((b) => b.id)).toContain(submitted.batchId);
    expect(await (await call(`/v1/batches/${submitted.batchId}/retry`, { method: 'POST' })).json()).toMatchObject({ requeued: 0, resumed: 0 });
  });

  it('finishes a submission a cut-off try left submitting, and answers with the rows that try queued', async () => {
    const emails = await harness.deactivatableEmails(2);
    const lines = ['email,action', ...emails.map((e) => `${e},deactivate`)];
    // The first try (the CLI's, same bytes, same id) queued every row and was cut off before the batch left `submitting`.
    const first = await harness.system.submit(await harness.plan(harness.writeManifest('cut-off.csv', lines)), { options: { skipInvalid: false } });
    await harness.system.store.setState(first.batch.id, 'submitting');
    const answer = await call('/v1/batches?name=cut-off.csv', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: `${lines.join('\n')}\n` });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { batchId: string; created: boolean; plan?: unknown; queuedRows?: { row: number; verdict: string; target: { email?: string } }[] };
    expect(body).toMatchObject({ batchId: first.batch.id, created: false });
    expect(body.plan).toBeUndefined();
    expect(body.queuedRows?.map((row) => [row.row, row.verdict, row.target.email])).toEqual(emails.map((email, i) => [i + 1, 'change', email]));
    expect((await waitForEnd(first.batch.id)).state).toBe('finished');
  });

  it('answers 503 with what to do when its Redis goes down', async () => {
    const lost = await startTestRedis();
    const handle = await openRedis({ url: lost.url, dataDir: harness.dir, logger: createSilentLogger() });
    const system = createBatchSystem({ redis: handle, prefix: lost.prefix(), target: harness.server.url, sim: true, logger: createSilentLogger() });
    const app = buildControlApp({
      logger: createSilentLogger(),
      token,
      target: { label: 'sim', id: harness.server.url, configured: true, sim: true },
      guardrails: { destructiveMaxCount: 25, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1000 },
      api: harness.api,
      rate: { requests: 300, perSeconds: 60 },
      batches: { system, api: harness.api, redis: handle.client },
    });
    const headers = { authorization: `Bearer ${token}` };
    try {
      await handle.client.ping();
      expect((await app.inject({ method: 'GET', url: '/v1/batches', headers })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

      await lost.stop();
      const deadline = Date.now() + 10_000;
      while (handle.client.status === 'ready' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

      const down = await app.inject({ method: 'GET', url: '/v1/batches', headers });
      expect(down.statusCode).toBe(503);
      expect(down.json().error).toMatchObject({ code: 'REDIS_UNAVAILABLE', hint: expect.stringContaining('nothing was queued') });
      const submit = await app.inject({ method: 'POST', url: '/v1/batches', headers: { ...headers, 'content-type': 'text/csv' }, payload: 'email,action\nmarcus.chen@acme.example,deactivate\n' });
      expect(submit.statusCode).toBe(503);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not ready', checks: { redis: { ok: false }, target: { ok: true } } });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      handle.client.disconnect();
    }
  });
});
