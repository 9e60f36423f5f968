import { describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { createBatchControl } from '../../src/queue/batch-control.js';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { exitCodeOf, formatBatchSummary } from '../../src/cli/batch-summary.js';
import { reportLines } from '../../src/queue/report-writer.js';
import { rowJobId } from '../../src/queue/row-job.js';
import { LATE_CONFIRM_TRIES } from '../../src/queue/row-patience.js';
import { batchLive } from '../../src/control/dashboard/pages/batch-page.js';
import { batchActivity } from '../../src/control/dashboard/batch-activity.js';

async function collectReport(h: BatchHarness, batchId: string): Promise<string> {
  let text = '';
  for await (const chunk of reportLines(h.system.store.outcomes(batchId), 'csv')) text += chunk;
  return text;
}

const batches = useBatchHarnesses();

async function deactivations(h: BatchHarness): Promise<Map<number, number>> {
  const perUser = new Map<number, number>();
  for (const m of await h.mutations()) if (m.operation === 'deactivateUser' && m.userId !== undefined) perUser.set(m.userId, (perUser.get(m.userId) ?? 0) + 1);
  return perUser;
}

async function submitDeactivations(h: BatchHarness, count: number) {
  const emails = await h.deactivatableEmails(count);
  return (await h.system.submit(await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)])))).batch;
}

async function setFaults(h: BatchHarness, spec: string): Promise<void> {
  await fetch(`${h.server.origin}/_sim/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${h.server.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ spec, seed: 3 }),
  });
}

describe('batch control', () => {
  it('pauses the whole fleet on a 429 storm without spending attempts, and changes each user once', async () => {
    // The service allows 10 calls a second; the budget is told 100, so the service answers 429 again and again.
    const h = await batches.open({ rateLimit: { requests: 10, perSeconds: 1 } });
    const batch = await submitDeactivations(h, 30);
    h.startWorkers({ concurrency: 4 });
    h.startWorkers({ concurrency: 4, ...h.clientFor(h.server.tokens.admin) });
    const done = await h.waitForState(batch.id, ['finished'], 90_000);
    expect(done.counts).toMatchObject({ succeeded: 30, failed: 0 });
    expect((await h.budget.counters()).rateLimited).toBeGreaterThan(0);
    const outcomes = await h.outcomes(batch.id);
    // A 429 spends no attempt: every row took one attempt that reached the service.
    expect(outcomes.every((o: RowOutcome) => o.attempts === 1)).toBe(true);
    expect([...(await deactivations(h)).values()]).toEqual(Array(30).fill(1));
  });

  it('stops the batch on a refused token, keeps the rest queued, and resumes with retry once the token is fixed', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDeactivations(h, 12);
    const bad = h.startWorkers({ concurrency: 2, ...h.clientFor('not-a-valid-token') });
    const stopped = await h.waitForState(batch.id, ['stopped']);
    expect(stopped.message).toMatch(/fix the token, then run: seatflow retry/);
    await bad.close(2000);
    expect(stopped.counts.failed).toBe(0);
    expect((await deactivations(h)).size).toBe(0);

    const { resumed } = await h.system.control.retry(batch.id);
    expect(resumed).toBeGreaterThan(0);
    h.startWorkers({ concurrency: 4 });
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 12, failed: 0 });
    expect([...(await deactivations(h)).values()]).toEqual(Array(12).fill(1));
  });

  it('cancels the queued rows; running rows finish, nothing cancelled was changed, and retry takes the batch up again', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDeactivations(h, 40);
    const pool = h.startWorkers({ concurrency: 2 });
    // A gate, not a race against the clock: once 4 rows ended, the worker takes no more, whatever the machine's load.
    // The rows it already holds (at most its concurrency, plus one fetched with each completion) finish.
    let completed = 0;
    const gateClosed = new Promise<void>((resolve) => {
      pool.worker.on('completed', () => {
        completed += 1;
        if (completed === 4) void pool.worker.pause(true).then(resolve);
      });
    });
    await gateClosed;
    // Rows started: what the dashboard calls a running batch.
    expect(await h.system.store.rowsStarted(batch.id)).toBeGreaterThanOrEqual(4);
    const { cancelled } = await h.system.control.cancel(batch.id);
    expect(cancelled).toBeGreaterThan(0);
    await pool.close(5000);
    const outcomes = await h.outcomes(batch.id);
    expect(outcomes).toHaveLength(40);
    const after = await h.system.store.get(batch.id);
    expect(after?.state).toBe('cancelled');
    expect(after?.counts.cancelled).toBeGreaterThan(20);
    expect((after?.counts.cancelled ?? 0) + (after?.counts.succeeded ?? 0)).toBe(40);
    // Its last row's end is when it stopped: the dashboard's duration of a cancelled batch stops growing.
    expect(Date.parse(after?.finishedAt ?? '')).toBe(Math.max(...outcomes.map((o) => Date.parse(o.finishedAt))));
    // Every outcome counted in its second, for the pace chart.
    expect((await h.system.store.finishedPerSecond(batch.id)).reduce((sum, second) => sum + second.rows, 0)).toBe(40);
    const changed = await deactivations(h);
    for (const o of outcomes) expect(changed.get(o.userId ?? -1) ?? 0).toBe(o.outcome === 'succeeded' ? 1 : 0);

    // A cancelled batch is taken up again where it stopped: the cancelled rows run, the done ones are not repeated.
    const { requeued } = await h.system.control.retry(batch.id);
    expect(requeued).toBe(after?.counts.cancelled);
    h.startWorkers({ concurrency: 4 });
    const resumed = await h.waitForState(batch.id, ['finished'], 60_000);
    expect(resumed.counts).toMatchObject({ succeeded: 40, cancelled: 0 });
    // The cancelled outcomes were forgotten in their seconds too: still one count per row.
    expect((await h.system.store.finishedPerSecond(batch.id)).reduce((sum, second) => sum + second.rows, 0)).toBe(40);
    expect([...(await deactivations(h)).values()]).toEqual(Array(40).fill(1));
  });

  it('says how to finish a batch whose submission stopped half-way, and the same submission again finishes it', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const emails = await h.deactivatableEmails(2);
    const plan = await h.plan(h.writeManifest('half-way.csv', ['email,action', ...emails.map((email) => `${email},deactivate`)]));
    const first = await h.system.submit(plan);
    // Its submitter stopped after queueing the rows and before marking it queued: no outcome can finish it so.
    await h.system.store.setState(first.batch.id, 'submitting');
    const stuck = (await h.system.store.get(first.batch.id))!;
    expect(await formatBatchSummary(stuck, h.system.store)).toContain('submit the same file again with the same options');
    const page = String(batchLive({ batch: stuck, activity: batchActivity(stuck, { rowsStarted: 0 }), budget: undefined, rows: { filter: undefined, rows: [], more: false, offset: 0 }, perSecond: [], announced: undefined, now: Date.now() }));
    expect(page).toContain('submit the same file again with the same options');
    const again = await h.system.submit(plan);
    expect(again.batch.id).toBe(first.batch.id);
    h.startWorkers();
    const done = await h.waitForState(first.batch.id, ['finished']);
    expect(done.counts.succeeded).toBe(2);
    expect(await formatBatchSummary(done, h.system.store)).not.toContain('still being submitted');
    expect((await h.mutations()).filter((m) => m.operation === 'deactivateUser')).toHaveLength(2);
  });

  it('retry queues the failed rows again with a fresh budget', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const emails = await h.deactivatableEmails(6);
    const plan = await h.plan(h.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)]));
    await setFaults(h, '503:1');
    const { batch } = await h.system.submit(plan);
    const pool = h.startWorkers({ policy: { maxAttempts: 2, maxElapsedMs: 10_000, baseDelayMs: 10, maxDelayMs: 20 } });
    const failed = await h.waitForState(batch.id, ['finished']);
    expect(failed.counts.failed).toBe(6);
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'failed', category: 'ServiceUnavailable', status: 503, attempts: 2 });
    await pool.close(2000);

    await setFaults(h, '');
    expect(await h.system.control.retry(batch.id)).toEqual({ requeued: 6, resumed: 0, leftToSteps: 0 });
    // Running again: no longer finished, so no finish time (the dashboard's duration grows again until it ends).
    const reopened = await h.system.store.get(batch.id);
    expect(reopened?.state).toBe('queued');
    expect(reopened?.finishedAt).toBeUndefined();
    h.startWorkers();
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 6, failed: 0 });
    expect((await h.outcomes(batch.id)).every((o) => o.attempts === 1)).toBe(true);
  });

  it('leaves a finished batch with nothing to retry alone: same state, same finishedAt', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDeactivations(h, 2);
    h.startWorkers();
    const finished = await h.waitForState(batch.id, ['finished']);
    expect(finished.counts.succeeded).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await h.system.control.retry(batch.id)).toEqual({ requeued: 0, resumed: 0, leftToSteps: 0 });
    const after = await h.system.store.get(batch.id);
    expect(after).toMatchObject({ state: 'finished', finishedAt: finished.finishedAt });
  });

  it('does not leave a retried batch finished when a running row ends before retry forgets the first outcome', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await submitDeactivations(h, 3);
    const { store } = h.system;
    const ended = (row: number, outcome: RowOutcome['outcome']): RowOutcome => ({ batchId: batch.id, row, line: row + 1, action: 'deactivate', outcome, attempts: 1, finishedAt: new Date().toISOString() });
    await store.recordOutcome(ended(1, 'failed'));
    await store.recordOutcome(ended(2, 'succeeded'));
    await store.setState(batch.id, 'cancelled');
    // Row 3 was still running when the batch was cancelled; it ends while retry is on its way to row 1.
    let rowThreeEnded = false;
    const control = createBatchControl({
      redis: h.redisHandle.client,
      keys: h.system.keys,
      queueFor: () => h.system.queue,
      store: {
        ...store,
        async forgetOutcome(batchId, row, expected) {
          if (!rowThreeEnded) rowThreeEnded = await store.recordOutcome(ended(3, 'succeeded'));
          return store.forgetOutcome(batchId, row, expected);
        },
      },
    });
    expect(await control.retry(batch.id)).toEqual({ requeued: 1, resumed: 0, leftToSteps: 0 });
    expect((await store.get(batch.id))?.state).toBe('queued');
  });
});

describe('a row whose last attempt may have applied', () => {
  async function discussionBatch(h: BatchHarness) {
    const file = h.writeManifest('d.json', [JSON.stringify({ version: 1, rows: [{ action: 'create-discussion', sheetId: '2094857361029384', comment: 'Laptops go back to IT.' }] })]);
    const plan = await h.plan(file);
    // Every write is applied, then answered 500: the row cannot know it posted the discussion.
    await setFaults(h, '500-after:1');
    return (await h.system.submit(plan)).batch;
  }
  const posted = async (h: BatchHarness) => (await h.mutations()).filter((m) => m.operation === 'createDiscussion').length;
  /** A batch whose one row posted its discussion and got a 500 for it, with one attempt of budget: it must confirm. */
  async function postedUnanswered(maxDelayMs: number) {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await discussionBatch(h);
    const pool = h.startWorkers({ policy: { maxAttempts: 1, maxElapsedMs: 10_000, baseDelayMs: 10, maxDelayMs } });
    for (let i = 0; i < 400 && (await posted(h)) === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    return { h, batch, pool };
  }

  it('is confirmed later when its retry budget runs out: done by this batch, so succeeded (confirmed), posted once', async () => {
    // The write is applied and answered 500; the reads the row makes later are answered.
    const { h, batch } = await postedUnanswered(2000);
    await setFaults(h, '');
    const done = await h.waitForState(batch.id, ['finished']);
    // Before: `failed` "the last attempt may have been applied: check this user", and a person had to look.
    expect(done.counts).toMatchObject({ succeeded: 1, unchanged: 0, failed: 0, unknown: 0 });
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true, message: 'done by this batch (confirmed after a lost answer)' });
    expect(await posted(h)).toBe(1);
  });

  it('ends unknown (exit 1) only when the later confirm cannot read either; retry confirms it first and posts nothing twice', async () => {
    // The write is applied and answered 500; from then on every call (the confirm reads) answers 503.
    const { h, batch, pool } = await postedUnanswered(20);
    await setFaults(h, '503:1');
    const unknown = await h.waitForState(batch.id, ['finished']);
    expect(unknown.counts).toMatchObject({ unknown: 1, failed: 0, succeeded: 0 });
    expect(exitCodeOf(unknown)).toBe(1);
    const [outcome] = await h.outcomes(batch.id);
    expect(outcome).toMatchObject({ outcome: 'unknown', category: 'ServiceUnavailable', status: 500 });
    expect(outcome?.message).toMatch(/may have been applied, and 12 later reads could not tell .*seatflow retry/);
    const summary = await formatBatchSummary(unknown, h.system.store);
    expect(summary).toMatch(/1 unknown/);
    expect(summary).toMatch(/unknown \(may have been applied; the service could not be read to tell\)/);
    expect(await collectReport(h, batch.id)).toMatch(/,unknown,/);
    await pool.close(2000);

    await setFaults(h, '');
    expect(await h.system.control.retry(batch.id)).toEqual({ requeued: 1, resumed: 0, leftToSteps: 0 });
    h.startWorkers();
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 1, unknown: 0 });
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true });
    expect(await posted(h)).toBe(1);
  });

  it('keeps reading while the service is unavailable past the first few confirm-only reads, and is confirmed once it answers', async () => {
    // Soak seed 6689: three late reads a second apart all fell in one 503 storm, and a rehire waited on an operator.
    const { h, batch } = await postedUnanswered(20);
    await setFaults(h, '503:1');
    // The outage outlasts the reads a refused read gets: the row is still confirming, not ended.
    const lateTries = async () => (await h.system.queue.getJob(rowJobId(batch.id, 1)))?.data.confirmLater?.tries ?? 0;
    for (let i = 0; i < 400 && (await lateTries()) < LATE_CONFIRM_TRIES + 1; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await lateTries()).toBeGreaterThan(LATE_CONFIRM_TRIES);
    expect(await h.system.store.getOutcome(batch.id, 1)).toBeUndefined();
    await setFaults(h, '');
    const done = await h.waitForState(batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 1, unknown: 0 });
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true });
    expect(await posted(h)).toBe(1);
  });

  it('is not cancelled as "not run" while it waits to retry, and is confirmed, not posted again, once resumed', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await discussionBatch(h);
    // The first attempt's answer is lost; its retry waits long enough for the batch to be cancelled meanwhile.
    const pool = h.startWorkers({ policy: { maxAttempts: 5, maxElapsedMs: 3_600_000, baseDelayMs: 600_000, maxDelayMs: 600_000 } });
    const job = await h.system.queue.getJob(`${batch.id}-1`);
    for (let i = 0; i < 200 && (await posted(h)) === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 200 && (await job?.getState()) !== 'delayed'; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(await job?.getState()).toBe('delayed');
    // The discussion may have been posted: the row is left to its worker (as a running row is), not ended as not run.
    expect(await h.system.control.cancel(batch.id)).toEqual({ cancelled: 0, running: 1 });
    await pool.close(2000);

    await setFaults(h, '');
    expect(await h.system.control.retry(batch.id)).toEqual({ requeued: 0, resumed: 1, leftToSteps: 0 });
    h.startWorkers();
    const done = await h.waitForState(batch.id, ['finished']);
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true });
    expect(done.counts.succeeded).toBe(1);
    expect(await posted(h)).toBe(1);
  });

  it('is resumed, not answered with an error, when it becomes due between retry reading it delayed and promoting it', async () => {
    // Soak seed 7256 (Sentinel): Redis refused writes for 15 s between the two, the job became due and ran, and
    // `POST /v1/batches/:id/retry` answered 500 "Job … is not in the delayed state".
    const h = await batches.open({ rateLimit: 'off' });
    const batch = await discussionBatch(h);
    const pool = h.startWorkers({ policy: { maxAttempts: 5, maxElapsedMs: 3_600_000, baseDelayMs: 600_000, maxDelayMs: 600_000 } });
    const job = await h.system.queue.getJob(rowJobId(batch.id, 1));
    for (let i = 0; i < 200 && (await job?.getState()) !== 'delayed'; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(await job?.getState()).toBe('delayed');
    await pool.close(2000);
    await setFaults(h, '');
    // The job becomes due (as its delay running out would make it) after retry has read it delayed.
    const queue = h.system.queue;
    const dueInTheGap = new Proxy(queue, {
      get(target, property) {
        if (property !== 'getJob') return Reflect.get(target, property, target) as unknown;
        return async (id: string) => {
          const read = await target.getJob(id);
          if (read === undefined) return read;
          const promote = read.promote.bind(read);
          read.promote = async () => {
            await promote();
            await promote();
          };
          return read;
        };
      },
    });
    const control = createBatchControl({ redis: h.redisHandle.client, keys: h.system.keys, queueFor: () => dueInTheGap, store: h.system.store });
    expect(await control.retry(batch.id)).toEqual({ requeued: 0, resumed: 1, leftToSteps: 0 });
    h.startWorkers();
    const done = await h.waitForState(batch.id, ['finished']);
    expect((await h.outcomes(batch.id))[0]).toMatchObject({ outcome: 'succeeded', confirmed: true });
    expect(done.counts.succeeded).toBe(1);
    expect(await posted(h)).toBe(1);
  });
});
