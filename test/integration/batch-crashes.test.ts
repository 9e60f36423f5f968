import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import { createBatchHarness, FAST_RETRY, type BatchHarness } from '../helpers/batch-harness.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let harness: BatchHarness | undefined;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
afterAll(async () => {
  await redis.stop();
});

async function expectEachUserChangedOnce(h: BatchHarness, outcomes: RowOutcome[]): Promise<void> {
  const changed = outcomes.filter((o) => o.outcome === 'succeeded' || (o.outcome === 'unchanged' && o.confirmed === true));
  const mutations = (await h.mutations()).filter((m) => m.operation === 'deactivateUser');
  const perUser = new Map<number, number>();
  for (const m of mutations) if (m.userId !== undefined) perUser.set(m.userId, (perUser.get(m.userId) ?? 0) + 1);
  for (const outcome of changed) expect(perUser.get(outcome.userId ?? -1), `user ${outcome.email}`).toBe(1);
  expect([...perUser.values()].every((n) => n === 1)).toBe(true);
  expect(mutations.length).toBe(changed.length);
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a batch interrupted', () => {
  it('survives a worker process killed with SIGKILL mid-batch: each user changed once, one outcome per row', async () => {
    // Every call takes 150 ms, so the killed worker has calls in flight.
    harness = await createBatchHarness(redis, { rateLimit: 'off', faults: 'delay:150ms:1' });
    const h = harness;
    const emails = await h.deactivatableEmails(40);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    // The real `seatflow worker` command, configured as an operator would, with short locks so its rows return fast.
    const config = h.writeManifest('worker-config.json', [
      JSON.stringify({ worker: { concurrency: 6, lockDurationMs: 4000, stalledIntervalMs: 1000 }, retry: FAST_RETRY, rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 } }),
    ]);
    const child = spawn(process.execPath, [path.resolve('bin/seatflow'), 'worker', '--config', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDIS_URL: redis.url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin, SEATFLOW_LOG_LEVEL: 'info' },
    });
    try {
      await waitUntil(async () => {
        const current = await h.system.store.get(batch.id);
        return (current?.counts.succeeded ?? 0) >= 8;
      });
      child.kill('SIGKILL');
      await once(child, 'exit');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const midway = await h.system.store.get(batch.id);
    expect(midway?.state).toBe('queued');
    h.startWorkers({ concurrency: 6 });
    const done = await h.waitForState(batch.id, ['finished'], 90_000);
    expect(done.counts.failed).toBe(0);
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes).toHaveLength(40);
    // The rows the killed worker held were re-read before anything was repeated.
    expect(outcomes.some((o) => o.confirmed === true)).toBe(true);
    await expectEachUserChangedOnce(h, outcomes);
  });

  it('survives a Redis restart mid-batch (append-only file on): each user changed once, one outcome per row', async () => {
    harness = await createBatchHarness(redis, { rateLimit: 'off', faults: 'delay:50ms:1' });
    const h = harness;
    const emails = await h.deactivatableEmails(40);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    h.startWorkers({ concurrency: 4 });
    await waitUntil(async () => ((await h.system.store.get(batch.id))?.counts.succeeded ?? 0) >= 8);
    await redis.restart();
    const done = await h.waitForState(batch.id, ['finished'], 90_000);
    expect(done.counts.failed).toBe(0);
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes).toHaveLength(40);
    await expectEachUserChangedOnce(h, outcomes);
  });
});
