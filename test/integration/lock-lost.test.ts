import { QueueKeys as BullQueueKeys } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { JobRegistry, JobType } from '../../src/queue/job-type.js';
import { rowJobId } from '../../src/queue/row-job.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { FAST_RETRY } from '../helpers/batch-harness.js';

const batches = useBatchHarnesses();

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a worker that loses its lock on a row', () => {
  it('aborts the row\'s call through its signal and records nothing; the next owner confirms first', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const [email] = await h.deactivatableEmails(1);
    const { batch } = await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', `${email},deactivate`])));
    let runs = 0;
    let aborted = false;
    let confirms = 0;
    // A call that only ends when its signal fires, and then reports success anyway (its answer came in regardless).
    const stuck: JobType = {
      action: 'deactivate',
      async run(context) {
        runs += 1;
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted = true;
        return { outcome: 'succeeded' };
      },
      async confirm() {
        confirms += 1;
        return 'done';
      },
    };
    const registry: JobRegistry = new Map([['deactivate', stuck]]);
    h.system.startWorkers({ api: h.api, budget: h.budget, registry, concurrency: 1, policy: FAST_RETRY, requestSettleMs: 0, lockDurationMs: 1000, stalledIntervalMs: 500 });
    await waitUntil(() => runs === 1);
    // Another worker's stalled check took the row: this worker's lock is gone, its next renewal fails.
    const lockKey = `${new BullQueueKeys(h.prefix).toKey(batch.queueName, rowJobId(batch.id, 1))}:lock`;
    await h.redisHandle.client.del(lockKey);
    await waitUntil(() => aborted);
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 1 });
    // The aborted attempt recorded nothing: the one outcome is the next owner's, which confirmed before acting.
    expect(runs).toBe(1);
    expect(confirms).toBe(1);
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true });
  });
});
