import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAST_RETRY } from '../helpers/batch-harness.js';
import { expectEachUserChangedOnce, useBatchHarnesses } from '../helpers/batch-fixtures.js';

const batches = useBatchHarnesses();

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
    const h = await batches.open({ rateLimit: 'off', faults: 'delay:150ms:1' });
    const emails = await h.deactivatableEmails(40);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    // The real `seatflow worker` command, configured as an operator would, with short locks so its rows return fast.
    const config = h.writeManifest('worker-config.json', [
      JSON.stringify({ worker: { concurrency: 6, lockDurationMs: 4000, stalledIntervalMs: 1000 }, retry: FAST_RETRY, rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 } }),
    ]);
    const child = spawn(process.execPath, [path.resolve('bin/seatflow'), 'worker', '--config', config], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin, SEATFLOW_LOG_LEVEL: 'info' },
    });
    const exited = once(child, 'exit');
    // Killed mid-call, by the service itself as the ninth change arrives: that row's in-flight marker is written and
    // its call sent, so the kill always finds a row in flight, however loaded the machine (a kill timed from the
    // test's side once lost the race: a starved test process let the worker finish every row first).
    const faults = h.server.faults;
    const answers = faults.draw.bind(faults);
    let changes = 0;
    faults.draw = (method = 'GET') => {
      if (method !== 'GET' && method !== 'HEAD' && ++changes === 9) child.kill('SIGKILL');
      return answers(method);
    };
    const tooLong = setTimeout(() => child.kill('SIGTERM'), 30_000);
    try {
      await exited;
      expect(child.signalCode, 'the worker is killed by the ninth change, not ended by the 30 s guard').toBe('SIGKILL');
    } finally {
      clearTimeout(tooLong);
      faults.draw = answers;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    // Rows whose call the killed worker had started and not recorded: their in-flight markers are still there.
    const heldByTheKilled = (await h.redisHandle.client.hkeys(h.system.keys.inflight(batch.id))).map(Number);
    expect(heldByTheKilled.length, 'rows in flight when the worker was killed').toBeGreaterThan(0);
    const midway = await h.system.store.get(batch.id);
    expect(midway?.state).toBe('queued');
    h.startWorkers({ concurrency: 6 });
    const done = await h.waitForState(batch.id, ['finished'], 90_000);
    expect(done.counts.failed).toBe(0);
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes).toHaveLength(40);
    // Every row the killed worker held was re-read before anything was repeated.
    for (const row of heldByTheKilled) expect(outcomes.find((o) => o.row === row)?.confirmed, `row ${row}`).toBe(true);
    // The killed worker's attempt got no answer: it is shown apart and spends none of the row's retry budget.
    for (const row of heldByTheKilled) expect(outcomes.find((o) => o.row === row), `row ${row}`).toMatchObject({ attempts: 1, crashedAttempts: 1 });
    expect(outcomes.filter((o) => !heldByTheKilled.includes(o.row)).every((o) => o.crashedAttempts === undefined)).toBe(true);
    await expectEachUserChangedOnce(h, outcomes, 'deactivateUser');
  });

  it('survives a Redis restart mid-batch (append-only file on): each user changed once, one outcome per row', async () => {
    const h = await batches.open({ rateLimit: 'off', faults: 'delay:50ms:1' });
    const emails = await h.deactivatableEmails(40);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])));
    h.startWorkers({ concurrency: 4 });
    await waitUntil(async () => ((await h.system.store.get(batch.id))?.counts.succeeded ?? 0) >= 8);
    await batches.redis().restart();
    const done = await h.waitForState(batch.id, ['finished'], 90_000);
    expect(done.counts.failed).toBe(0);
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes).toHaveLength(40);
    await expectEachUserChangedOnce(h, outcomes, 'deactivateUser');
  });
});
