import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { ServiceUnavailableError } from '../../src/client/api-error.js';
import type { ActionName } from '../../src/manifest/action.js';
import type { JobRegistry, JobType } from '../../src/queue/job-type.js';
import { REPORT_COLUMNS, writeReport } from '../../src/queue/report-writer.js';
import type { RetryPolicy } from '../../src/queue/retry-policy.js';
import { createRowAttempts } from '../../src/queue/row-attempt.js';
import { MAX_CRASHES_PER_ROW } from '../../src/queue/row-patience.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { resendingScript } from '../helpers/resending-script.js';

const batches = useBatchHarnesses();

/** A budget of two attempts that reach the service. */
const TWO_ANSWERS: RetryPolicy = { maxAttempts: 2, maxElapsedMs: 60_000, baseDelayMs: 20, maxDelayMs: 100 };

/** The real job types, with deactivate answered 503 by the service on its first call and counting its calls. */
function registryWithOne503(): { registry: JobRegistry; runs: () => number } {
  const real = createJobRegistry();
  const deactivate = real.get('deactivate')!;
  let runs = 0;
  const flaky: JobType = {
    ...deactivate,
    async run(context) {
      runs += 1;
      if (runs === 1) throw new ServiceUnavailableError({ operation: 'deactivateUser', status: 503, errorCode: 4001, message: 'Service unavailable' });
      return deactivate.run(context);
    },
  };
  return { registry: new Map<ActionName, JobType>([...real, ['deactivate', flaky]]), runs: () => runs };
}

/** What a worker process does for a row before its call, N times: each worker died before the service answered. */
async function crashMidCall(h: BatchHarness, batchId: string, row: number, times: number): Promise<void> {
  const attempts = createRowAttempts(h.redisHandle.client, h.system.keys);
  for (let i = 0; i < times; i += 1) await attempts.start(batchId, row, { settleMs: 0, countAttempt: true });
}

async function oneRowBatch(h: BatchHarness): Promise<string> {
  const [email] = await h.deactivatableEmails(1);
  const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', `${email},deactivate`])));
  return batch.id;
}

function startWorkers(h: BatchHarness, registry: JobRegistry) {
  return h.system.startWorkers({ api: h.api, budget: h.budget, registry, concurrency: 2, policy: TWO_ANSWERS, requestSettleMs: 0, lockDurationMs: 4000, stalledIntervalMs: 1000 });
}

describe('attempts ended by a worker crash', () => {
  it('do not count against the row\'s retry budget, and the report shows them apart', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batchId = await oneRowBatch(h);
    // Three workers died mid-call (a crash-looping fleet); then the service answers 503 once, then takes the call.
    await crashMidCall(h, batchId, 1, 3);
    const { registry, runs } = registryWithOne503();
    startWorkers(h, registry);
    await h.waitForState(batchId, ['finished']);
    const [outcome] = await h.outcomes(batchId);
    // Two attempts reached the service (the 503 and the success): within a budget of two, whatever the crashes.
    expect(outcome).toMatchObject({ outcome: 'succeeded', attempts: 2, crashedAttempts: 3 });
    expect(runs()).toBe(2);
    const file = path.join(h.dir, 'report.csv');
    await writeReport(h.system.store.outcomes(batchId), file);
    const [header, record] = parse(readFileSync(file, 'utf8')) as string[][];
    expect(header).toEqual([...REPORT_COLUMNS]);
    expect(record?.[header!.indexOf('attempts')]).toBe('2');
    expect(record?.[header!.indexOf('crashedAttempts')]).toBe('3');
  });

  it('are counted once each, and never take the count of answered attempts below zero (a retried row starts afresh)', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batchId = await oneRowBatch(h);
    const attempts = createRowAttempts(h.redisHandle.client, h.system.keys);
    const start = () => attempts.start(batchId, 1, { settleMs: 0, countAttempt: true });
    expect(await start()).toMatchObject({ kind: 'go', attempts: 1, crashed: 0, uncertain: false });
    // `seatflow retry` gives the row a fresh budget while the crashed attempt's marker stays (it may have applied).
    await h.redisHandle.client.hdel(h.system.keys.attempts(batchId), '1');
    expect(await start()).toMatchObject({ kind: 'go', attempts: 1, crashed: 1, uncertain: true });
    // That attempt never ended either: a confirm-only read finds it, moves it, and itself counts nothing and leaves no
    // marker that a later attempt would count as crashed.
    expect(await attempts.start(batchId, 1, { settleMs: 0, countAttempt: false })).toMatchObject({ kind: 'go', attempts: 0, crashed: 2, uncertain: true });
    expect(await start()).toMatchObject({ kind: 'go', attempts: 1, crashed: 2, uncertain: true });
  });

  it(`end a row that keeps killing its worker as unknown after ${MAX_CRASHES_PER_ROW} of them, without calling the service again`, async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batchId = await oneRowBatch(h);
    await crashMidCall(h, batchId, 1, MAX_CRASHES_PER_ROW);
    const { registry, runs } = registryWithOne503();
    startWorkers(h, registry);
    await h.waitForState(batchId, ['finished']);
    const [outcome] = await h.outcomes(batchId);
    expect(outcome).toMatchObject({ outcome: 'unknown', attempts: 0, crashedAttempts: MAX_CRASHES_PER_ROW });
    expect(outcome?.message).toMatch(new RegExp(`${MAX_CRASHES_PER_ROW} attempts of this row ended without an answer .*seatflow retry ${batchId}`));
    expect(runs()).toBe(0);

    // Once the cause is found, `seatflow retry` (as the message says) takes the row up afresh: it confirms first (one
    // of the crashed attempts may have applied), then runs, instead of ending unknown again at once.
    expect(await h.system.control.retry(batchId)).toMatchObject({ requeued: 1 });
    await h.waitForState(batchId, ['finished']);
    const [retried] = await h.outcomes(batchId);
    expect(retried).toMatchObject({ outcome: 'succeeded' });
    expect(retried?.crashedAttempts).toBeUndefined();
    expect(runs()).toBe(2);
  });
  it('are not found in a start whose answer was lost and which the connection sent again: it is one attempt, not a crashed one', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batchId = await oneRowBatch(h);
    const resending = createRowAttempts(resendingScript(h.redisHandle.client, 'seatflowRowStart'), h.system.keys);
    expect(await resending.start(batchId, 1, { settleMs: 0, countAttempt: true })).toMatchObject({ kind: 'go', uncertain: false, attempts: 1, crashed: 0 });
    expect(await h.redisHandle.client.hget(h.system.keys.crashed(batchId), '1')).toBeNull();
    // A worker that dies in that attempt is still found by the next start.
    const next = createRowAttempts(h.redisHandle.client, h.system.keys);
    expect(await next.start(batchId, 1, { settleMs: 0, countAttempt: true })).toMatchObject({ kind: 'go', uncertain: true, attempts: 1, crashed: 1 });
  });
});
