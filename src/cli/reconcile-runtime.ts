import path from 'node:path';
import type { Worker } from 'bullmq';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import { createScheduleBook, type ScheduleBook } from '../reconcile/schedule-book.js';
import { createScheduledRun, startScheduleWorker, type ScheduledRun } from '../reconcile/schedule-worker.js';
import { createBudgetedApi, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';

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

/** How this runtime runs a schedule's policy: on the shared request budget, reads retried, batches through its queue. */
export function scheduledRunOf(runtime: CliRuntime, batch: BatchRuntime): ScheduledRun {
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  return createScheduledRun({ api, guardrails: runtime.config.guardrails, system: batch.system, reportDir: reconcileReportDir(runtime), clock: runtime.serviceClock });
}

/** For `seatflow worker`: fire this target's schedules (one firing per tick across every worker). */
export function startScheduledRuns(runtime: CliRuntime, batch: BatchRuntime): { book: ScheduleBook; worker: Worker; close(graceMs: number): Promise<void> } {
  const book = openScheduleBook(runtime, batch);
  const worker = startScheduleWorker({
    connection: batch.redis.bullmqConnection(),
    prefix: runtime.config.redis.queuePrefix,
    book,
    run: scheduledRunOf(runtime, batch),
    logger: runtime.logger,
  });
  return { book, worker, close: (graceMs) => closeBullmq(worker, { graceMs }) };
}
