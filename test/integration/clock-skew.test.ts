import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowJobId } from '../../src/queue/row-job.js';
import { expectEachUserChangedOnce, useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { FAST_RETRY, type BatchHarness } from '../helpers/batch-harness.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

const batches = useBatchHarnesses();
const CENTURY_MS = 100 * 365 * 24 * 3600 * 1000;

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function submitDeactivations(h: BatchHarness, count: number) {
  const emails = await h.deactivatableEmails(count);
  return (await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])))).batch;
}

/**
 * The real `seatflow worker` on a machine whose clock runs a century ahead: its own process, with Date.now shifted
 * before anything loads (BullMQ included), so nothing leaks into this test process.
 */
function startSkewedWorker(h: BatchHarness, skewMs: number) {
  const config = h.writeManifest('worker-config.json', [
    JSON.stringify({ worker: { concurrency: 4, lockDurationMs: 4000, stalledIntervalMs: 1000, shutdownGraceMs: 2000 }, retry: FAST_RETRY, rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 } }),
  ]);
  const shift = `const now = Date.now; Date.now = () => now() + ${skewMs};`;
  return spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(shift)}`, path.resolve('bin/seatflow'), 'worker', '--config', config], {
    stdio: ['ignore', 'ignore', 'ignore'],
    env: { ...process.env, REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin },
  });
}

async function setFaults(h: BatchHarness, spec: string): Promise<void> {
  await fetch(`${h.server.origin}/_sim/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ spec, seed: 5 }),
  });
}

describe('a worker whose clock is wrong', () => {
  it('does not poison the batch: the rows it parks for a retry are dated by Redis, and the retry budget counts Redis time', async () => {
    const h = await batches.open({ rateLimit: 'off', faults: 'delay:100ms:1' });
    const batch = await submitDeactivations(h, 24);
    const skewed = startSkewedWorker(h, CENTURY_MS);
    try {
      // Faults once the worker runs rows (its start-up token check must pass), so that it parks some for a retry.
      await waitUntil(async () => (await h.system.queue.getActiveCount()) > 0);
      await setFaults(h, '503:0.5');
      // Once the skewed worker has parked rows for a retry (again and again), stop it: a right-clock worker finishes.
      await waitUntil(async () => (await h.redisHandle.client.hvals(h.system.keys.attempts(batch.id))).filter((n) => Number(n) >= 3).length >= 3);
      skewed.kill('SIGTERM');
      await once(skewed, 'exit');
    } finally {
      if (skewed.exitCode === null) skewed.kill('SIGKILL');
    }
    // Before: the parked rows were due a century ahead (the batch never finished).
    expect(await h.system.rowsParkedBeyond((await h.system.store.get(batch.id))!, 3600_000)).toEqual([]);
    await setFaults(h, '503:0.2');
    h.startWorkers({ concurrency: 4 });
    const done = await h.waitForState(batch.id, ['finished'], 60_000);
    // Before: the right-clock worker saw the budget of rows the skewed one started as long spent.
    expect(done.counts).toMatchObject({ succeeded: 24, failed: 0, unknown: 0 });
    const outcomes = await h.outcomes(batch.id);
    for (const o of outcomes) expect(Math.abs(Date.parse(o.startedAt ?? '') - Date.now())).toBeLessThan(600_000);
    await expectEachUserChangedOnce(h, outcomes, 'deactivateUser');
  }, 120_000);

  it('`status` shows a row parked implausibly far ahead, and `retry` runs it now', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDeactivations(h, 2);
    // A row dated by a clock a century ahead, as BullMQ's own moves would date it on such a machine.
    const job = await h.system.queue.getJob(rowJobId(batch.id, 2));
    await job?.remove();
    await h.system.queue.add(job?.name ?? 'deactivate', { batchId: batch.id, row: 2 }, { jobId: rowJobId(batch.id, 2), delay: CENTURY_MS });
    const env = { REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix };
    const status = await runSeatflow(['status', batch.id], env);
    expect(status.stdout).toMatch(/warning: 1 row\(s\) parked implausibly far ahead \(a machine's clock may be wrong\)/);
    expect(status.stdout).toMatch(/row 2: due 21\d\d-/);
    expect(status.stdout).toMatch(new RegExp(`seatflow retry ${batch.id}`));
    const json = JSON.parse((await runSeatflow(['status', batch.id, '--json'], env)).stdout) as { parkedFarAhead?: Array<{ row: number }> };
    expect(json.parkedFarAhead?.map((r) => r.row)).toEqual([2]);

    expect((await h.system.control.retry(batch.id)).resumed).toBe(1);
    h.startWorkers({ concurrency: 2 });
    const done = await h.waitForState(batch.id, ['finished'], 60_000);
    expect(done.counts).toMatchObject({ succeeded: 2 });
  }, 60_000);
});
