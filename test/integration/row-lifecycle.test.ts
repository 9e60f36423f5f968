import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createBatchStore } from '../../src/queue/batch-store.js';
import { mayHaveLostRows, requeueLostRows } from '../../src/queue/lost-rows.js';
import { rowJobId } from '../../src/queue/row-job.js';
import { NOT_DUE_RECHECK_MS } from '../../src/queue/row-patience.js';
import { createServiceClock } from '../../src/core/service-clock.js';
import type { PlannedRow } from '../../src/plan/planned-row.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { resendingScript } from '../helpers/resending-script.js';

const batches = useBatchHarnesses();
const DAY = 86_400_000;

/** A step batch as a lifecycle makes one: a record, rows saved, nothing queued. */
async function stepBatch(h: BatchHarness, emails: readonly string[]) {
  const id = `o${Date.now().toString(16).slice(-12)}-deactivate`;
  const store = h.system.store;
  await store.create({ id, source: 'test', sha256: 'f'.repeat(64), createdAt: new Date().toISOString(), total: emails.length, queued: emails.length, sim: true, target: h.server.url, queueName: h.system.queue.name }, Date.now());
  const rows: PlannedRow[] = emails.map((email, index) => {
    const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
    return { row: index + 1, line: index + 2, action: { action: 'deactivate', user: { email } }, actionName: 'deactivate', verdict: 'change', target: { email, userId: user!.id } };
  });
  await store.saveRows(id, rows);
  await store.transition(id, ['submitting'], 'queued');
  return { id, rows };
}

describe('a row’s lifecycle (row-lifecycle.ts)', () => {
  it('moves planned → scheduled → queued → running → ended, counting each state on the batch record, and refuses what a state does not allow', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { id } = await stepBatch(h, await h.deactivatableEmails(3));
    const rows = h.system.store.rowLifecycle;
    await rows.plan(id, [1, 2, 3]);
    const due = h.server.context.clock.now() + DAY;
    await rows.schedule(id, [1, 2], due);
    expect((await h.system.store.get(id))?.rowStates).toEqual({ planned: 1, scheduled: 2, queued: 0, running: 0 });
    expect(await rows.statusOf(id, 1)).toEqual({ state: 'scheduled', dueAt: due });

    // A worker handed a scheduled row (nothing queued it) does not run it; nor a queued one before its due instant.
    expect(await rows.start(id, 1, due - 1)).toEqual({ kind: 'not-queued', state: 'scheduled', dueAt: due });
    expect(await rows.queue(h.system.queue, id, [{ row: 1 }], { dueAt: due })).toEqual(['queued']);
    expect(await rows.queue(h.system.queue, id, [{ row: 1 }], { dueAt: due })).toEqual(['active']);
    expect(await rows.start(id, 1, due - 1)).toEqual({ kind: 'not-due', dueAt: due });
    expect(await rows.start(id, 1, due)).toEqual({ kind: 'go' });
    expect((await h.system.store.get(id))?.rowStates).toEqual({ planned: 1, scheduled: 1, queued: 0, running: 1 });

    // Cancel and a lifecycle's "will not run" end only rows nothing runs.
    const outcome = (row: number, what: 'cancelled' | 'skipped') => ({ batchId: id, row, line: row + 1, action: 'deactivate', outcome: what, attempts: 0, finishedAt: new Date().toISOString() });
    expect(await h.system.store.endRow(outcome(1, 'cancelled'), ['planned', 'scheduled', 'queued'])).toEqual({ kind: 'refused', state: 'running' });
    expect(await h.system.store.endRow(outcome(2, 'skipped'), ['planned', 'scheduled'])).toEqual({ kind: 'recorded', batchFinished: false, run: 0 });
    expect(await h.system.store.endRow(outcome(2, 'cancelled'))).toEqual({ kind: 'had-outcome' });
    expect((await h.system.store.get(id))?.rowStates).toEqual({ planned: 1, scheduled: 0, queued: 0, running: 1 });

    // Parked (a backoff): queued again; retry reopens an ended row to queued, a step's retry to planned.
    await rows.park(id, 1);
    expect(await rows.statusOf(id, 1)).toEqual({ state: 'queued', dueAt: due });
    expect(await h.system.store.forgetOutcome(id, 2, { outcome: 'skipped', finishedAt: (await h.system.store.getOutcome(id, 2))?.finishedAt ?? '' }, 'planned')).toBe(true);
    expect(await rows.statusOf(id, 2)).toEqual({ state: 'planned' });
    expect((await h.system.store.get(id))?.rowStates).toEqual({ planned: 2, scheduled: 0, queued: 1, running: 0 });
  });

  it('never takes a scheduled row for a lost one: only a row whose state says queued or running and that has no job', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { id } = await stepBatch(h, await h.deactivatableEmails(2));
    const rows = h.system.store.rowLifecycle;
    await rows.schedule(id, [1, 2], h.server.context.clock.now() + 30 * DAY);
    expect(await mayHaveLostRows(h.system.queue, h.system.store, [id])).toBe(false);
    const batch = (await h.system.store.get(id))!;
    expect(await requeueLostRows(h.system.queue, h.system.store, batch, createSilentLogger())).toEqual([]);

    // Row 2 comes due and is queued; its job is lost (a failover): found, and queued again.
    await rows.queue(h.system.queue, id, [{ row: 2 }], { dueAt: h.server.context.clock.now() });
    await h.system.queue.remove(rowJobId(id, 2));
    expect(await mayHaveLostRows(h.system.queue, h.system.store, [id])).toBe(true);
    expect(await requeueLostRows(h.system.queue, h.system.store, (await h.system.store.get(id))!, createSilentLogger())).toEqual([2]);
    expect((await h.system.queue.getJob(rowJobId(id, 2)))?.data).toEqual({ batchId: id, row: 2, recovered: true });
    expect(await h.system.queue.getJob(rowJobId(id, 1))).toBeUndefined();
  });

  it('a worker refuses a row queued before its due instant: it waits, and runs once the service clock passes it', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const [email] = await h.deactivatableEmails(1);
    const { id } = await stepBatch(h, [email!]);
    const due = h.server.context.clock.now() + 2 * DAY;
    // Whoever queued it (a bug, a sweep of old): the row says when it is due.
    await h.system.store.rowLifecycle.queue(h.system.queue, id, [{ row: 1 }], { dueAt: due });
    h.startWorkers({ concurrency: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await h.mutations()).filter((m) => m.operation === 'deactivateUser')).toEqual([]);
    expect(await (await h.system.queue.getJob(rowJobId(id, 1)))?.getState()).toBe('delayed');

    h.server.context.clock.advance(2 * DAY + 1000);
    // Parked for at most a minute on this machine's reckoning: promoted here instead of waiting for it.
    await (await h.system.queue.getJob(rowJobId(id, 1)))!.promote();
    const done = await h.waitForState(id, ['finished']);
    expect(done.counts.succeeded).toBe(1);
    const deactivations = (await h.mutations()).filter((m) => m.operation === 'deactivateUser');
    expect(deactivations).toHaveLength(1);
    expect(Date.parse(deactivations[0]!.at)).toBeGreaterThanOrEqual(due);
  });

  it('a worker whose reading of the service clock is a moment old reads it again before it parks a row queued as due', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const [email] = await h.deactivatableEmails(1);
    const { id } = await stepBatch(h, [email!]);
    // The worker's service clock as `seatflow worker` keeps it: read from the reference server, at most once a
    // minute here (once a second by default), so that its reading is surely older than the clock's move below.
    const serviceClock = createServiceClock({ readSimClock: async () => h.server.context.clock.now(), refreshMs: 60_000 });
    await serviceClock.refresh();
    h.startWorkers({ concurrency: 1, serviceClock });
    // Two days pass on the service (a rehearsal moving its clock); a step that read the clock since queues the row.
    h.server.context.clock.advance(2 * DAY);
    const due = h.server.context.clock.now();
    await h.system.store.rowLifecycle.queue(h.system.queue, id, [{ row: 1 }], { dueAt: due });
    // Parked as "not due" on the old reading, it would wait a minute (NOT_DUE_RECHECK_MS) before it looked again.
    const done = await h.waitForState(id, ['finished'], NOT_DUE_RECHECK_MS / 2);
    expect(done.counts.succeeded).toBe(1);
    const deactivations = (await h.mutations()).filter((m) => m.operation === 'deactivateUser');
    expect(deactivations).toHaveLength(1);
    expect(Date.parse(deactivations[0]!.at)).toBeGreaterThanOrEqual(due);
  });

  it('wakes the job waiting for a row when the row ends: the delayed step is promoted at once, and again after a retry ends it again', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { id } = await stepBatch(h, await h.deactivatableEmails(2));
    const rows = h.system.store.rowLifecycle;
    const steps = new Queue('{row-waiters-test}', { connection: h.redisHandle.bullmqConnection(), prefix: h.prefix });
    try {
      // A step that waits an hour for its row, as delayed work.
      const step = await steps.add('remove', {}, { jobId: `${id}-1-remove`, delay: 3_600_000 });
      const waiter = { queue: steps.name, jobId: step.id! };
      await rows.plan(id, [1, 2]);
      expect(await rows.queue(h.system.queue, id, [{ row: 1 }], { dueAt: h.server.context.clock.now(), waiter })).toEqual(['queued']);
      await rows.queue(h.system.queue, id, [{ row: 2 }], { dueAt: h.server.context.clock.now() });
      expect(await step.getState()).toBe('delayed');

      const outcome = (row: number, what: 'succeeded' | 'unknown') => ({ batchId: id, row, line: row + 1, action: 'deactivate', outcome: what, attempts: 1, finishedAt: new Date().toISOString() });
      // A row nobody waits for wakes nobody; the waited row's end names its waiter and promotes it.
      expect(await h.system.store.endRow(outcome(2, 'succeeded'))).toEqual({ kind: 'recorded', batchFinished: false, run: 0 });
      expect(await step.getState()).toBe('delayed');
      expect(await h.system.store.endRow(outcome(1, 'unknown'))).toEqual({ kind: 'recorded', batchFinished: true, run: 0, waiter });
      expect(await step.getState()).toBe('waiting');

      // The step waits again (for a retry of the unknown row): the row, reopened and ended again (its next run), wakes it again.
      await (await steps.getJob(step.id!))!.remove();
      const again = await steps.add('remove', {}, { jobId: `${id}-1-remove`, delay: 3_600_000 });
      expect(await h.system.store.forgetOutcome(id, 1, { outcome: 'unknown', finishedAt: (await h.system.store.getOutcome(id, 1))?.finishedAt ?? '' })).toBe(true);
      expect(await h.system.store.endRow(outcome(1, 'succeeded'))).toMatchObject({ kind: 'recorded', run: 1, waiter });
      expect(await rows.runs(id)).toEqual(new Map([[1, 1]]));
      expect(await again.getState()).toBe('waiting');
    } finally {
      await steps.obliterate({ force: true });
      await steps.close();
    }
  });

  it('wakes the waiting step and finishes the batch when the row\'s end was made and its answer lost (the connection sent it again)', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { id } = await stepBatch(h, await h.deactivatableEmails(1));
    const steps = new Queue('{row-waiters-resend-test}', { connection: h.redisHandle.bullmqConnection(), prefix: h.prefix });
    try {
      const step = await steps.add('deactivate', {}, { jobId: `${id}-1-deactivate`, delay: 3_600_000 });
      const waiter = { queue: steps.name, jobId: step.id! };
      await h.system.store.rowLifecycle.plan(id, [1]);
      await h.system.store.rowLifecycle.queue(h.system.queue, id, [{ row: 1 }], { dueAt: h.server.context.clock.now(), waiter });
      // The same store over a connection that runs the end, loses its answer and sends it again.
      const resending = createBatchStore(resendingScript(h.redisHandle.client, 'seatflowRowStateEnd'), h.system.keys, {}, async (ended) => {
        await (await steps.getJob(ended.jobId))?.promote();
      });
      const outcome = { batchId: id, row: 1, line: 2, action: 'deactivate', outcome: 'succeeded' as const, attempts: 1, finishedAt: new Date().toISOString() };
      expect(await resending.endRow(outcome)).toEqual({ kind: 'recorded', batchFinished: true, run: 0, waiter });
      expect(await step.getState()).toBe('waiting');
      expect((await h.system.store.get(id))?.counts.succeeded).toBe(1);
    } finally {
      await steps.obliterate({ force: true });
      await steps.close();
    }
  });
  it('reopens a row once when the retry\'s answer was lost and the connection sent it again, and never reopens an outcome recorded since the retry read it', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const { id } = await stepBatch(h, await h.deactivatableEmails(2));
    const store = h.system.store;
    await store.rowLifecycle.queue(h.system.queue, id, [{ row: 1 }, { row: 2 }]);
    const failed = (row: number, at: number) => ({ batchId: id, row, line: row + 1, action: 'deactivate', outcome: 'failed' as const, status: 500, attempts: 3, finishedAt: new Date(at).toISOString() });
    const at = Date.now();
    await store.endRow(failed(1, at));
    await store.endRow(failed(2, at));
    // The same store over a connection that runs the reopen, loses its answer and sends it again.
    const resending = createBatchStore(resendingScript(h.redisHandle.client, 'seatflowRowStateReopen'), h.system.keys);
    expect(await resending.forgetOutcome(id, 1, failed(1, at))).toBe(true);
    expect(await store.rowLifecycle.statusOf(id, 1)).toEqual({ state: 'queued' });
    expect(await store.rowLifecycle.runs(id)).toEqual(new Map([[1, 1]]));
    const batch = await store.get(id);
    expect(batch?.counts.failed).toBe(1);
    expect(batch?.state).toBe('queued');
    // A retry that read row 2's outcome before it was retried and ended again does not forget the newer one.
    expect(await store.forgetOutcome(id, 2, failed(2, at))).toBe(true);
    await store.endRow(failed(2, at + 1000));
    expect(await store.forgetOutcome(id, 2, failed(2, at))).toBe(false);
    expect((await store.getOutcome(id, 2))?.finishedAt).toBe(failed(2, at + 1000).finishedAt);
  });
});
