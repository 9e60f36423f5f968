import { DelayedError, Worker, type Job, type ConnectionOptions } from 'bullmq';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { BatchSystem } from '../queue/batch-system.js';
import { runIdOf, runReconciliation, type ReconciliationApproval, type ReconciliationRun } from './run-reconciliation.js';
import { scheduleDataSchema, type LastRun, type ScheduleBook, type ScheduleData } from './schedule-book.js';
import { logBullmqError } from '../queue/redis/connection-lost.js';
import type { SharedClock } from '../queue/redis/redis-clock.js';

/** Runs one firing of a schedule: the policy of `data` for the run `tick`. */
export type ScheduledRun = (data: ScheduleData, tick: Date) => Promise<ReconciliationRun>;

/**
 * Runs one firing of a sync schedule (`kind: 'sync'`) and says what `schedule list` keeps of it. Given by the
 * composition root: src/sync plans and queues it, through the same machinery as `seatflow sync`.
 */
export type ScheduledSync = (data: ScheduleData, tick: Date) => Promise<LastRun>;

export interface ScheduledRunOptions {
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  system: Pick<BatchSystem, 'submit'>;
  reportDir: string;
  /** When the run happens, for measuring ages; tests pass the reference server's clock. */
  now?: () => Date;
  /** The approvals gate of a schedule's run (as `schedule:<name>`); absent: submitted at once. */
  approve?: (scheduleName: string) => ReconciliationApproval;
  /** The service's clock, when `now` is not given (service-clock.ts). Default the process clock. */
  clock?: Pick<Clock, 'now' | 'refresh'>;
}

/**
 * A schedule's run: the same as `seatflow reconcile`, named by the schedule and its tick. Nobody can answer a
 * prompt: a schedule with limits of its own (`--max-changes`, `--max-share`) runs within them without one, and one
 * without is held by the guardrails it crosses (it changes nothing and its report says why).
 */
export function createScheduledRun(options: ScheduledRunOptions): ScheduledRun {
  return (data, tick) =>
    runReconciliation({
      policyPath: data.policyPath,
      api: options.api,
      guardrails: options.guardrails,
      ...(options.now === undefined ? {} : { now: options.now() }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      runKey: data.name,
      runAt: tick,
      apply: data.apply,
      system: options.system,
      ...(data.limits === undefined ? {} : { scheduleLimits: data.limits }),
      confirmGuardrails: () => Promise.resolve(data.limits !== undefined),
      reportDir: options.reportDir,
      ...(options.approve === undefined ? {} : { approve: options.approve(data.name) }),
    });
}

/** What `schedule list` keeps of a run. */
export function lastRunOf(run: ReconciliationRun, tick: Date, finishedAt: Date): LastRun {
  const { disposition } = run;
  return {
    runId: disposition.runId,
    tick: tick.toISOString(),
    finishedAt: finishedAt.toISOString(),
    applied: disposition.applied,
    ...(disposition.batchId === undefined ? {} : { batchId: disposition.batchId }),
    ...(disposition.batchExisted === undefined ? {} : { batchExisted: disposition.batchExisted }),
    ...(disposition.heldBecause === undefined ? {} : { heldBecause: disposition.heldBecause }),
    ...(disposition.awaitingApproval === undefined ? {} : { awaitingApproval: disposition.awaitingApproval }),
    ...(disposition.nothingToChange === true ? { nothingToChange: true } : {}),
    plan: { ...run.plan.plan.summary },
    policySha256: run.plan.policy.sha256,
    report: run.report.json,
  };
}

export interface ScheduleWorkerOptions {
  /** A BullMQ connection (RedisHandle.bullmqConnection()). */
  connection: ConnectionOptions;
  prefix: string;
  book: ScheduleBook;
  run: ScheduledRun;
  /** How a sync schedule's firing runs; without it such a firing fails and says so. */
  sync?: ScheduledSync;
  logger: Logger;
  /** Told about each run once it is recorded (notifications: a run that changed nothing because of a limit). */
  onRun?: (run: ReconciliationRun, data: ScheduleData, tick: Date) => Promise<void>;
  /**
   * The clock every machine reads alike (Redis TIME): a tick handed out before it on this clock waits. BullMQ times a
   * schedule's next tick on the clock of the process that made it, so a machine whose clock runs ahead fires early.
   */
  clock?: SharedClock;
}

/** How far ahead of the shared clock a tick may be handed out and still run: the clocks of a healthy fleet agree. */
export const TICK_EARLY_TOLERANCE_MS = 5_000;

/**
 * The worker of the schedule queue, started by `seatflow worker` beside the row workers. BullMQ hands each tick's job
 * to one worker; the tick is the job's scheduled time (`prevMillis`), which names the run and so the batch.
 */
export function startScheduleWorker(options: ScheduleWorkerOptions): Worker<ScheduleData> {
  const worker = new Worker<ScheduleData, unknown>(
    options.book.queueName,
    async (job: Job<ScheduleData>, token?: string) => {
      const data = scheduleDataSchema.parse(job.data);
      const tick = new Date(job.opts.prevMillis ?? job.timestamp);
      const log = options.logger.child({ schedule: data.name, run: runIdOf(data.name, tick) });
      // Nothing runs before its time, whoever queued it: the tick is checked on the shared clock, every time.
      const earlyMs = options.clock === undefined ? 0 : tick.getTime() - (await options.clock.now());
      if (earlyMs > TICK_EARLY_TOLERANCE_MS) {
        log.warn({ earlyMs }, 'schedule tick handed out before its time on the shared clock (a machine clock runs ahead): it waits');
        await job.moveToDelayed(Date.now() + earlyMs, token);
        throw new DelayedError();
      }
      try {
        if (data.kind === 'sync') {
          if (options.sync === undefined) throw new Error('this worker cannot run sync schedules');
          const last = await options.sync(data, tick);
          await options.book.recordRun(data.name, last);
          log.info({ workflows: last.workflows, held: last.heldBecause, plan: last.plan }, 'scheduled sync ran');
          return last;
        }
        const run = await options.run(data, tick);
        await options.book.recordRun(data.name, lastRunOf(run, tick, new Date()));
        await options.onRun?.(run, data, tick).catch((error: unknown) => log.warn({ err: error }, 'a scheduled run observer failed'));
        log.info({ batch: run.disposition.batchId, held: run.disposition.heldBecause, plan: run.plan.plan.summary }, 'scheduled reconciliation ran');
        return run.disposition;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await options.book.recordRun(data.name, {
          runId: runIdOf(data.name, tick), tick: tick.toISOString(), finishedAt: new Date().toISOString(), applied: false, plan: {}, policySha256: '', report: '', error: message,
        });
        log.error({ err: error }, `scheduled ${data.kind ?? 'reconciliation'} failed; the next tick runs as planned`);
        throw error;
      }
    },
    { connection: options.connection, prefix: options.prefix, concurrency: 1 },
  );
  worker.on('error', logBullmqError(options.logger, 'schedule worker'));
  return worker;
}
