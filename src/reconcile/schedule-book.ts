import { Queue } from 'bullmq';
import { z } from 'zod';
import type { Logger } from '../core/logger.js';
import { UsageError } from '../core/seatflow-error.js';
import type { BatchStore } from '../queue/batch-store.js';
import { createQueueKeys, scheduleQueueNameOf } from '../queue/queue-keys.js';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import type { RedisHandle } from '../queue/redis/open-redis.js';
import type { OutcomeCounts } from '../queue/row-outcome.js';

/** What a schedule's every firing carries (its BullMQ job template's data). */
export const scheduleDataSchema = z.object({
  name: z.string(),
  /**
   * What each firing runs: a licence reconciliation of the policy (absent, in schedules added before sync existed), or
   * a sync of the HR export at `exportPath` with the lifecycle policy (`schedule add NAME sync HR_EXPORT --policy P`).
   */
  kind: z.enum(['reconcile', 'sync']).optional(),
  /** Absolute; the HR export a sync schedule reads at each firing (the file HR's nightly export replaces). */
  exportPath: z.string().optional(),
  /** Absolute; read at each firing, so the policy and its CSVs may be edited between runs. */
  policyPath: z.string(),
  apply: z.boolean(),
  /**
   * The schedule's own limits per run (`schedule add --max-changes N --max-share F`). A run over them changes
   * nothing; within them it goes on without the guardrails' confirmation, which a schedule has nobody to give.
   * Absent: a run above config guardrails.destructiveMax* is held.
   */
  limits: z.object({ maxChanges: z.number().int().min(0).optional(), maxShare: z.number().min(0).max(1).optional() }).optional(),
});
export type ScheduleData = z.infer<typeof scheduleDataSchema>;

/** What a run left behind, kept per schedule for `schedule list` (and the dashboard). */
export const lastRunSchema = z.object({
  runId: z.string(),
  /** The tick (ISO) the run belongs to. */
  tick: z.string(),
  finishedAt: z.string(),
  applied: z.boolean(),
  batchId: z.string().optional(),
  batchExisted: z.boolean().optional(),
  heldBecause: z.array(z.string()).optional(),
  /** The run waits for approval as this change request. */
  awaitingApproval: z.string().optional(),
  /** Applied, and no seat needed to change: no batch was made. */
  nothingToChange: z.boolean().optional(),
  /** Rows planned to change, already done, refused…, as the plan counted them. */
  plan: z.record(z.string(), z.number()),
  /** The workflows a sync run queued (joiners, movers, an offboarding). */
  workflows: z.array(z.string()).optional(),
  policySha256: z.string(),
  report: z.string(),
  error: z.string().optional(),
});
export type LastRun = z.infer<typeof lastRunSchema>;

export interface ScheduleView extends ScheduleData {
  cron: string | undefined;
  tz: string | undefined;
  /** The next firing, ISO; absent when BullMQ has none (e.g. an ended schedule). */
  next: string | undefined;
  lastRun: LastRun | undefined;
  /** The outcome counts of the last run's batch, and its state, when it made one. */
  lastBatch: { state: string; counts: OutcomeCounts; total: number } | undefined;
}

export interface AddScheduleOptions extends ScheduleData {
  cron: string;
  /** IANA time zone of the cron pattern; default UTC. */
  tz?: string;
}

export interface ScheduleBookOptions {
  redis: RedisHandle;
  /** config redis.queuePrefix. */
  prefix: string;
  /** The service the schedules act on; names their queue. */
  target: string;
  /** The batch store, to show the last run's outcome counts. */
  store: BatchStore;
  logger: Logger;
}

export interface ScheduleBook {
  queueName: string;
  add(options: AddScheduleOptions): Promise<ScheduleView>;
  list(): Promise<ScheduleView[]>;
  get(name: string): Promise<ScheduleView | undefined>;
  /** True when a schedule of this name existed. */
  remove(name: string): Promise<boolean>;
  recordRun(name: string, run: LastRun): Promise<void>;
  /**
   * Queues one run of the schedule now, as a tick at this time (`seatflow schedule run` does it in its own process):
   * the next worker of the target runs it like any tick and records it as the last run. Undefined when there is no
   * such schedule; `workers` says how many schedule workers are connected to take it.
   */
  runNow(name: string): Promise<{ jobId: string; workers: number } | undefined>;
  close(): Promise<void>;
}

export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Reconciliation and sync schedules as BullMQ Job Schedulers: durable in Redis, one job per tick (its id names the tick, so
 * any number of workers fire it once), cron with a time zone. Each schedule's last run is kept beside it.
 */
export function createScheduleBook(options: ScheduleBookOptions): ScheduleBook {
  const queueName = scheduleQueueNameOf(options.target);
  const keys = createQueueKeys(options.prefix);
  let queue: Queue<ScheduleData> | undefined;
  const open = (): Queue<ScheduleData> => {
    if (queue === undefined) {
      queue = new Queue<ScheduleData>(queueName, { connection: options.redis.bullmqConnection(), prefix: options.prefix });
      queue.on('error', (error) => options.logger.debug({ err: error }, 'schedule queue connection error'));
    }
    return queue;
  };
  const redis = options.redis.client;

  const lastRunOf = async (name: string): Promise<LastRun | undefined> => {
    const text = await redis.get(keys.scheduleLastRun(queueName, name));
    if (text === null) return undefined;
    const parsed = lastRunSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  };

  const view = async (scheduler: Awaited<ReturnType<Queue<ScheduleData>['getJobSchedulers']>>[number]): Promise<ScheduleView | undefined> => {
    const data = scheduleDataSchema.safeParse(scheduler.template?.data);
    if (!data.success) return undefined;
    const lastRun = await lastRunOf(data.data.name);
    const batch = lastRun?.batchId === undefined ? undefined : await options.store.get(lastRun.batchId);
    return {
      ...data.data,
      cron: scheduler.pattern,
      tz: scheduler.tz,
      next: scheduler.next === undefined ? undefined : new Date(Number(scheduler.next)).toISOString(),
      lastRun,
      lastBatch: batch === undefined ? undefined : { state: batch.state, counts: batch.counts, total: batch.total },
    };
  };

  const book: ScheduleBook = {
    queueName,
    async add(add) {
      if (!SCHEDULE_NAME.test(add.name)) throw new UsageError(`"${add.name}" is not a schedule name`, 'Use letters, digits, ".", "_" and "-" (up to 64).');
      const tz = add.tz ?? 'UTC';
      checkTimeZone(tz);
      const data: ScheduleData = {
        name: add.name,
        ...(add.kind === 'sync' ? { kind: 'sync', exportPath: add.exportPath } : {}),
        policyPath: add.policyPath,
        apply: add.apply,
        ...(add.limits === undefined ? {} : { limits: add.limits }),
      };
      try {
        await open().upsertJobScheduler(add.name, { pattern: add.cron, tz }, { name: add.kind ?? 'reconcile', data, opts: { removeOnComplete: 50, removeOnFail: 50 } });
      } catch (error) {
        if (error instanceof Error && /cron|pattern|invalid|validation/i.test(error.message)) {
          throw new UsageError(`--cron "${add.cron}" is not a cron pattern: ${error.message}`, 'Five fields: minute hour day-of-month month day-of-week, e.g. "0 6 * * 1" (Mondays 06:00).');
        }
        throw error;
      }
      const added = await book.get(add.name);
      if (added === undefined) throw new Error(`schedule ${add.name} vanished after it was added`);
      return added;
    },
    async list() {
      const schedulers = await open().getJobSchedulers(0, -1, true);
      const views = await Promise.all(schedulers.map(view));
      return views.filter((item): item is ScheduleView => item !== undefined).sort((a, b) => a.name.localeCompare(b.name));
    },
    async get(name) {
      const scheduler = await open().getJobScheduler(name);
      return scheduler === undefined ? undefined : view(scheduler);
    },
    async remove(name) {
      const removed = await open().removeJobScheduler(name);
      await redis.del(keys.scheduleLastRun(queueName, name));
      return removed;
    },
    async recordRun(name, run) {
      await redis.set(keys.scheduleLastRun(queueName, name), JSON.stringify(run));
    },
    async runNow(name) {
      const data = scheduleDataSchema.safeParse((await open().getJobScheduler(name))?.template?.data);
      if (!data.success) return undefined;
      // Not a tick of the scheduler: its own id, so that it never stands in for (or is taken for) a scheduled tick.
      const job = await open().add(data.data.kind ?? 'reconcile', data.data, { jobId: `run-now-${name}-${Date.now()}`, removeOnComplete: 50, removeOnFail: 50 });
      return { jobId: job.id ?? '', workers: await open().getWorkersCount() };
    },
    async close() {
      if (queue !== undefined) await closeBullmq(queue);
    },
  };
  return book;
}

function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new UsageError(`--tz "${tz}" is not a time zone`, 'Use an IANA name such as Europe/Berlin, America/New_York or UTC.');
  }
}

/**
 * Every schedule of a target with its next and last run: for callers that only read them (the control API's
 * dashboard). Opens and closes its own BullMQ connection.
 */
export async function listSchedules(options: ScheduleBookOptions): Promise<ScheduleView[]> {
  const book = createScheduleBook(options);
  try {
    return await book.list();
  } finally {
    await book.close();
  }
}
