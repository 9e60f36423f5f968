import path from 'node:path';
import type { Worker } from 'bullmq';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import { createScheduleBook, type ScheduleBook } from '../reconcile/schedule-book.js';
import { createScheduledRun, startScheduleWorker, type ScheduledRun, type ScheduledSync } from '../reconcile/schedule-worker.js';
import { createScheduledSync } from '../sync/scheduled-sync.js';
import type { ReconciliationRun } from '../reconcile/run-reconciliation.js';
import type { ScheduleData } from '../reconcile/schedule-book.js';
import { reconciliationApproval, syncApproval } from './governance-runtime.js';
import type { Actor } from '../governance/operators/actor.js';
import { createBudgetedApi, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { openOffboarding } from './offboarding-runtime.js';
import { syncReportDir } from './sync-runtime.js';
import { createRedisClock } from '../queue/redis/redis-clock.js';

/** Where every reconciliation run writes its plan report: `<dataDir>/reconcile/`. */
export function reconcileReportDir(runtime: CliRuntime): string {
  return path.join(runtime.config.dataDir, 'reconcile');
}

/** A manual run is named by its policy file (and its time), a scheduled one by its schedule (and its tick). */
export function manualRunKey(policyPath: string): string {
  return `policy:${path.resolve(policyPath)}`;
}

/** The schedules of this runtime's target, closed with the runtime. */
export function openScheduleBook(runtime: CliRuntime, batch: BatchRuntime): ScheduleBook {
  const book = createScheduleBook({ redis: batch.redis, prefix: runtime.config.redis.queuePrefix, target: batch.target, store: batch.system.store, logger: runtime.logger });
  runtime.onClose(() => book.close());
  return book;
}

/** Who a schedule's run asks for approval as: the schedule, so that any approver may approve it. */
function scheduleActorOf(name: string): Actor {
  return { name: `schedule:${name}`, role: 'operator', via: 'schedule' };
}

/** How this runtime runs a schedule's policy: on the shared request budget, reads retried, batches through its queue. */
export function scheduledRunOf(runtime: CliRuntime, batch: BatchRuntime): ScheduledRun {
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  return createScheduledRun({
    api,
    guardrails: runtime.config.guardrails,
    system: batch.system,
    reportDir: reconcileReportDir(runtime),
    clock: runtime.serviceClock,
    // A schedule's run asks for approval as the schedule: any approver may approve it.
    approve: (name) => reconciliationApproval(batch, scheduleActorOf(name), `scheduled run of ${name}`),
  });
}

/** `schedule.held`: a scheduled run that changed nothing because a limit or the guardrails held it. */
export function notifyHeldRun(batch: BatchRuntime): (run: ReconciliationRun, data: ScheduleData, tick: Date) => Promise<void> {
  return async (run, data) => {
    const held = run.disposition.heldBecause;
    if (held === undefined) return;
    await batch.governance.notifier.notify({
      id: `schedule.held:${run.disposition.runId}`,
      type: 'schedule.held',
      title: `Schedule ${data.name} changed nothing: a limit held its run`,
      text: [`Run ${run.disposition.runId} of ${data.policyPath} planned ${run.plan.plan.summary.change} changes and changed nothing:`, ...held.map((reason) => `- ${reason}`), `Plan report: ${run.report.csv}`].join('\n'),
      path: '/schedules',
      target: batch.target,
      sim: batch.target.startsWith('sim:'),
      data: { schedule: data.name, runId: run.disposition.runId, heldBecause: held, plan: run.plan.plan.summary },
    });
  };
}

/** How this runtime runs a sync schedule's firing: as `seatflow sync`, on the shared request budget. */
export function scheduledSyncOf(runtime: CliRuntime, batch: BatchRuntime): ScheduledSync {
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  return createScheduledSync({
    api,
    offboarding: openOffboarding(runtime, batch),
    config: runtime.config,
    target: batch.target,
    reportDir: syncReportDir(runtime),
    now: () => runtime.serviceClock.now(),
    // As a reconciliation schedule's: the run asks for approval as the schedule, and nobody confirms a broken export.
    approve: (data) => syncApproval(batch, scheduleActorOf(data.name), `scheduled run of ${data.name}`, { exportPath: data.exportPath ?? '', policyPath: data.policyPath, acceptMissing: false }),
  });
}

/** For `seatflow worker`: fire this target's schedules (one firing per tick across every worker). */
export function startScheduledRuns(runtime: CliRuntime, batch: BatchRuntime): { book: ScheduleBook; worker: Worker; close(graceMs: number): Promise<void> } {
  const book = openScheduleBook(runtime, batch);
  const worker = startScheduleWorker({
    connection: batch.redis.bullmqConnection(),
    prefix: runtime.config.redis.queuePrefix,
    book,
    run: scheduledRunOf(runtime, batch),
    sync: scheduledSyncOf(runtime, batch),
    logger: runtime.logger,
    onRun: notifyHeldRun(batch),
    clock: createRedisClock(batch.redis.client),
  });
  return { book, worker, close: (graceMs) => closeBullmq(worker, { graceMs }) };
}
