import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Queue, type Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createScheduleBook, listSchedules, type ScheduleBook, type ScheduleView } from '../../src/reconcile/schedule-book.js';
import { createScheduledRun, startScheduleWorker, TICK_EARLY_TOLERANCE_MS, type ScheduledRun } from '../../src/reconcile/schedule-worker.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { closeBullmq } from '../../src/queue/redis/close-bullmq.js';
import type { SharedClock } from '../../src/queue/redis/redis-clock.js';

const batches = useBatchHarnesses();
const DAY = 86_400_000;
const GUARDRAILS = { destructiveMaxCount: 1000, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1_000_000 };

/** Members who have not logged in for 90 days, by the reference server's clock, go to CONTRIBUTOR. */
function writePolicy(h: BatchHarness, limits: Record<string, number> = {}, days = 90): string {
  const file = path.join(h.dir, `policy-${days}.json`);
  writeFileSync(file, JSON.stringify({ planId: DEMO.planId, rules: [{ name: 'stale', when: { seat: 'MEMBER', lastLoginOlderThanDays: days }, then: { seat: 'CONTRIBUTOR' } }], limits }));
  return file;
}

interface Fixture {
  book: ScheduleBook;
  run: ScheduledRun;
  /** BullMQ's view of the schedule queue, to drive the scheduler: a tick's delayed job is promoted, not waited for. */
  queue: Queue;
  workers: Worker[];
  /** Ids of the schedule jobs completed, by any worker. */
  completed: string[];
  close(): Promise<void>;
}

function scheduleFixture(h: BatchHarness, workerCount: number, guardrails = GUARDRAILS, clock?: SharedClock): Fixture {
  const logger = createSilentLogger();
  const book = createScheduleBook({ redis: h.redisHandle, prefix: h.prefix, target: h.server.url, store: h.system.store, logger });
  // Ages are measured on the reference server's clock, which the test moves.
  const run = createScheduledRun({ api: h.api, guardrails, system: h.system, reportDir: path.join(h.dir, 'reconcile'), now: () => new Date(h.server.context.clock.now()) });
  const queue = new Queue(book.queueName, { connection: h.redisHandle.bullmqConnection(), prefix: h.prefix });
  const completed: string[] = [];
  const workers = Array.from({ length: workerCount }, () => {
    const worker = startScheduleWorker({ connection: h.redisHandle.bullmqConnection(), prefix: h.prefix, book, run, logger, ...(clock === undefined ? {} : { clock }) });
    worker.on('completed', (job) => completed.push(job.id ?? '?'));
    return worker;
  });
  return {
    book,
    run,
    queue,
    workers,
    completed,
    async close() {
      // As seatflow closes them: a connection closed while it still starts fails where nothing listens.
      await Promise.all(workers.map((worker) => closeBullmq(worker)));
      await closeBullmq(queue);
      await book.close();
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Fires the tick BullMQ scheduled next, now, and waits until a worker recorded its run. */
async function fireNextTick(f: Fixture, name: string): Promise<{ tick: number; view: ScheduleView }> {
  const before = await f.book.get(name);
  const tick = Number(Date.parse(before!.next!));
  const job = await until('the tick job', async () => (await f.queue.getJob(`repeat:${name}:${tick}`)) ?? undefined);
  await job.promote();
  const view = await until('the run of the tick', async () => {
    const current = await f.book.get(name);
    return current?.lastRun?.tick === new Date(tick).toISOString() ? current : undefined;
  });
  return { tick, view };
}

const berlin = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(new Date(ms));

describe('scheduled reconciliation', () => {
  it('fires a tick once with two workers, finds its batch when the same tick runs again, and makes a new batch on the next tick', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 2);
    try {
      const added = await f.book.add({ name: 'weekly-seats', policyPath: writePolicy(h), apply: true, cron: '0 6 * * 1', tz: 'Europe/Berlin' });
      expect(berlin(Date.parse(added.next!))).toBe('Mon 06:00');

      const first = await fireNextTick(f, 'weekly-seats');
      const batchId = first.view.lastRun!.batchId!;
      expect(first.view.lastRun).toMatchObject({ applied: true, runId: `weekly-seats@${new Date(first.tick).toISOString()}` });
      expect(first.view.lastRun!.plan.change).toBeGreaterThan(0);
      // The next tick is a week later, in the schedule's time zone.
      expect(Date.parse(first.view.next!) - first.tick).toBeGreaterThanOrEqual(7 * DAY - 3_600_000);
      expect(berlin(Date.parse(first.view.next!))).toBe('Mon 06:00');

      // The same tick again (a re-delivered job, a retry) finds the first batch and queues nothing.
      const again = await f.run({ name: 'weekly-seats', policyPath: added.policyPath, apply: true }, new Date(first.tick));
      expect(again.disposition).toMatchObject({ batchId, batchExisted: true });
      expect(again.submitted?.jobsAdded).toBe(0);

      h.startWorkers();
      const batch = await h.waitForState(batchId, ['finished']);
      expect(batch.counts.succeeded).toBe(first.view.lastRun!.plan.change);
      // Give a second worker every chance to fire the same tick again: it must not.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(f.completed).toEqual([`repeat:weekly-seats:${first.tick}`]);
      expect((await h.system.store.list()).map((b) => b.id)).toEqual([batchId]);
      const downgrades = (await h.mutations()).filter((m) => /downgrade/i.test(m.operation));
      expect(downgrades).toHaveLength(batch.counts.succeeded);
      expect(new Set(downgrades.map((m) => m.userId)).size).toBe(downgrades.length);

      // Once done, the same tick finds nothing left to change: no second batch.
      const done = await f.run({ name: 'weekly-seats', policyPath: added.policyPath, apply: true }, new Date(first.tick));
      expect(done.disposition).toMatchObject({ nothingToChange: true });
      expect((await h.system.store.list()).map((b) => b.id)).toEqual([batchId]);

      // Six weeks pass on the service's clock: more members went stale. The next tick is a new batch for them.
      h.server.context.clock.advance(45 * DAY);
      const second = await fireNextTick(f, 'weekly-seats');
      const nextBatch = second.view.lastRun!.batchId!;
      expect(nextBatch).not.toBe(batchId);
      expect(second.tick).toBe(Date.parse(first.view.next!));
      const finished = await h.waitForState(nextBatch, ['finished']);
      expect(finished.counts.succeeded).toBeGreaterThan(0);
      expect(f.completed).toHaveLength(2);
      expect(second.view.lastBatch).toMatchObject({ state: expect.any(String), total: finished.total });
    } finally {
      await f.close();
    }
  });

  it('changes nothing when a run is over its limit, and says why', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 1);
    try {
      await f.book.add({ name: 'capped', policyPath: writePolicy(h, { maxChanges: 2 }), apply: true, cron: '0 6 1 * *' });
      const { view } = await fireNextTick(f, 'capped');
      expect(view.lastRun!.applied).toBe(false);
      expect(view.lastRun!.batchId).toBeUndefined();
      expect(view.lastRun!.heldBecause!.join(' ')).toMatch(/more than the policy's limits\.maxChanges \(2\)/);
      expect(await h.system.store.list()).toEqual([]);
      expect((await h.mutations()).filter((m) => /downgrade/i.test(m.operation))).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('makes no batch when no seat needs to change: a tick leaves its report and "nothing to change"', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 1);
    try {
      await f.book.add({ name: 'every-minute', policyPath: writePolicy(h, {}, 100_000), apply: true, cron: '* * * * *' });
      const { view } = await fireNextTick(f, 'every-minute');
      expect(view.lastRun).toMatchObject({ applied: false, nothingToChange: true });
      expect(view.lastRun!.batchId).toBeUndefined();
      expect(view.lastRun!.report).toMatch(/every-minute-\d{8}T\d{6}Z\.json$/);
      // Before: an empty batch per tick.
      expect(await h.system.store.list()).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('holds a run above the config guardrails unless the schedule has limits of its own, and holds it above those', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 1, { ...GUARDRAILS, destructiveMaxCount: 2 });
    try {
      const policyPath = writePolicy(h);
      await f.book.add({ name: 'unlimited', policyPath, apply: true, cron: '0 6 * * 1' });
      const held = await fireNextTick(f, 'unlimited');
      expect(held.view.lastRun!.heldBecause!.join(' ')).toMatch(/more than guardrails\.destructiveMaxCount \(2\) \(not confirmed\)/);
      await f.book.add({ name: 'capped', policyPath, apply: true, cron: '0 6 * * 2', limits: { maxChanges: 3 } });
      const capped = await fireNextTick(f, 'capped');
      expect(capped.view.limits).toEqual({ maxChanges: 3 });
      expect(capped.view.lastRun!.heldBecause!.join(' ')).toMatch(/more than the schedule's --max-changes \(3\)/);
      expect(await h.system.store.list()).toEqual([]);
      await f.book.add({ name: 'trusted', policyPath, apply: true, cron: '0 6 * * 3', limits: { maxChanges: 1000, maxShare: 1 } });
      const trusted = await fireNextTick(f, 'trusted');
      expect(trusted.view.lastRun).toMatchObject({ applied: true });
      expect(trusted.view.lastRun!.plan.change).toBeGreaterThan(3);
      expect((await h.system.store.list()).map((batch) => batch.id)).toEqual([trusted.view.lastRun!.batchId]);
    } finally {
      await f.close();
    }
  });

  it('only writes the plan report when the schedule has no --apply; remove forgets it', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 1);
    try {
      await f.book.add({ name: 'dry-run', policyPath: writePolicy(h), apply: false, cron: '30 5 * * *', tz: 'America/New_York' });
      const { view } = await fireNextTick(f, 'dry-run');
      expect(view.lastRun).toMatchObject({ applied: false });
      expect(view.lastRun!.plan.change).toBeGreaterThan(0);
      expect(view.lastRun!.report).toMatch(/dry-run-\d{8}T\d{6}Z\.json$/);
      expect(await h.system.store.list()).toEqual([]);
      expect((await h.mutations()).filter((m) => /downgrade/i.test(m.operation))).toEqual([]);
      const listed = await listSchedules({ redis: h.redisHandle, prefix: h.prefix, target: h.server.url, store: h.system.store, logger: createSilentLogger() });
      expect(listed).toEqual([expect.objectContaining({ name: 'dry-run', apply: false, cron: '30 5 * * *', tz: 'America/New_York', lastRun: view.lastRun, lastBatch: undefined })]);
      expect(Date.parse(listed[0]!.next!)).toBeGreaterThan(Date.now());
      expect(await f.book.remove('dry-run')).toBe(true);
      expect(await f.book.list()).toEqual([]);
    } finally {
      await f.close();
    }
  });

  it('refuses a bad cron pattern and a bad time zone', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 0);
    try {
      const policyPath = writePolicy(h);
      await expect(f.book.add({ name: 'bad', policyPath, apply: false, cron: '0 6 * * 1', tz: 'Mars/Olympus' })).rejects.toThrow(/not a time zone/);
      await expect(f.book.add({ name: 'bad', policyPath, apply: false, cron: 'every monday' })).rejects.toThrow(/not a cron pattern/);
      await expect(f.book.add({ name: 'no spaces', policyPath, apply: false, cron: '0 6 * * 1' })).rejects.toThrow(/not a schedule name/);
    } finally {
      await f.close();
    }
  });

  it('runs a schedule now when asked (the dashboard\'s Run now): a worker runs it as a tick at that time; the scheduled ticks stay as they were', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    const f = scheduleFixture(h, 1);
    try {
      await f.book.add({ name: 'nightly', policyPath: writePolicy(h), apply: false, cron: '0 3 * * *' });
      const before = await f.book.get('nightly');
      await f.workers[0]!.waitUntilReady();
      expect(await f.book.runNow('nope')).toBeUndefined();
      const askedAt = Date.now();
      const queued = await f.book.runNow('nightly');
      expect(queued).toMatchObject({ jobId: expect.stringMatching(/^run-now-nightly-\d+$/), workers: 1 });
      const view = await until('the run asked for', async () => ((await f.book.get('nightly'))?.lastRun !== undefined ? f.book.get('nightly') : undefined));
      expect(Date.parse(view!.lastRun!.tick)).toBeGreaterThanOrEqual(askedAt - 1000);
      expect(view!.lastRun!.applied).toBe(false);
      expect(view!.lastRun!.error).toBeUndefined();
      expect(view!.lastRun!.plan.change).toBeGreaterThan(0);
      await until('the run job to complete', async () => (f.completed.length > 0 ? true : undefined));
      expect(f.completed).toEqual([queued!.jobId]);
      expect(view!.next).toBe(before!.next);
    } finally {
      await f.close();
    }
  });
  it('runs a tick handed out before its time on the shared clock only once that clock reaches it (a machine whose clock runs ahead)', async () => {
    // Found by the whole-system simulation (seed 3903): a worker whose clock ran two hours ahead fired the 03:00 tick
    // an hour and a quarter early. Here the machine that queues the tick runs 8 s ahead of the shared clock.
    const h = await batches.open({ rateLimit: 'off' });
    const aheadMs = 8_000;
    const shared: SharedClock = { now: async () => Date.now() - aheadMs };
    const f = scheduleFixture(h, 1, GUARDRAILS, shared);
    try {
      await f.book.add({ name: 'nightly', policyPath: writePolicy(h), apply: false, cron: '0 3 * * *' });
      await f.workers[0]!.waitUntilReady();
      const queued = await f.book.runNow('nightly');
      expect(queued).toBeDefined();
      const view = await until('the run asked for', async () => ((await f.book.get('nightly'))?.lastRun !== undefined ? f.book.get('nightly') : undefined));
      // The run ended (on this machine's clock, ahead) no sooner than the shared clock reached its tick.
      const tick = Date.parse(view!.lastRun!.tick);
      expect(Date.parse(view!.lastRun!.finishedAt) - aheadMs).toBeGreaterThanOrEqual(tick - TICK_EARLY_TOLERANCE_MS);
    } finally {
      await f.close();
    }
  });
});
