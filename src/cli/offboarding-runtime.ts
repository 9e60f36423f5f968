import path from 'node:path';
import { createJobRegistry } from '../../jobs/registry.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { RequestBudget } from '../queue/request-budget.js';
import { HR_LIFECYCLES } from '../sync/hr-lifecycles.js';
import { MIGRATION_LIFECYCLES } from '../migrate/migration-lifecycles.js';
import { createOffboardingSystem, type OffboardingSystem } from '../workflow/offboarding-system.js';
import { formatOffboardingStatus } from '../workflow/offboarding-status.js';
import { writeOffboardingReport } from '../workflow/offboarding-report.js';
import { createWorkflowStore } from '../workflow/workflow-store.js';
import { workerSettingsOf, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { plural } from '../core/plural.js';

/**
 * The offboarding workflow over the batch runtime's Redis and queues, closed with the CLI runtime. `target` names
 * another target's step queue (status of an offboarding submitted elsewhere); default the runtime's.
 */
export function openOffboarding(runtime: CliRuntime, batch: BatchRuntime, target: string = batch.target): OffboardingSystem {
  const system = createOffboardingSystem({
    batches: batch.system,
    redis: batch.redis,
    prefix: runtime.config.redis.queuePrefix,
    target,
    sim: runtime.sim !== undefined,
    logger: runtime.logger,
    offboarding: runtime.config.offboarding,
    clock: runtime.serviceClock,
    // The step queue of a target is one queue: whoever takes steps runs the joiners and movers of seatflow sync, and
    // the domain migrations of seatflow migrate, too.
    lifecycles: [...HR_LIFECYCLES, ...MIGRATION_LIFECYCLES],
  });
  runtime.onClose(() => system.close());
  return system;
}

export interface WorkUntilOptions {
  api: SmartsheetApi;
  budget: RequestBudget;
  /** Polled every 200 ms: true ends the work. */
  done: () => Promise<boolean>;
  signal: AbortSignal;
}

/** Runs row and step workers in this process until `done` says so (or the signal), then stops them. */
export async function workUntil(runtime: CliRuntime, batch: BatchRuntime, offboarding: OffboardingSystem, options: WorkUntilOptions): Promise<void> {
  const { shutdownGraceMs } = runtime.config.worker;
  const settings = workerSettingsOf(runtime, batch);
  const { concurrency, lockDurationMs, stalledIntervalMs } = settings;
  const { api, budget } = options;
  const rows = batch.system.startWorkers({ api, budget, registry: createJobRegistry(), ...settings });
  const steps = offboarding.startStepWorker({ api, concurrency, lockDurationMs, stalledIntervalMs });
  try {
    while (!options.signal.aborted && !(await options.done())) await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await steps.close(shutdownGraceMs);
    await rows.close(shutdownGraceMs);
  }
}

/** `seatflow status OFFBOARDING`: per leaver, the step done, the next step and when, until when undo is possible. */
export async function printOffboardingStatus(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, json: boolean): Promise<boolean> {
  const workflow = await createWorkflowStore(batch.redis.client, batch.system.keys, batch.target).get(workflowId);
  if (workflow === undefined) return false;
  const status = await openOffboarding(runtime, batch, workflow.target).status(workflowId);
  if (status === undefined) return false;
  process.stdout.write(json ? `${JSON.stringify(status)}\n` : formatOffboardingStatus(status));
  return true;
}

/** `seatflow report OFFBOARDING`: one row per leaver (see offboarding-report.ts); false when the id names no offboarding. */
export async function writeOffboardingReportOf(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, out: string | undefined): Promise<boolean> {
  const workflow = await createWorkflowStore(batch.redis.client, batch.system.keys, batch.target).get(workflowId);
  if (workflow === undefined) return false;
  const rows = (await openOffboarding(runtime, batch, workflow.target).reportRows(workflowId)) ?? [];
  const file = out ?? path.join(runtime.config.dataDir, 'reports', `${workflowId}${workflow.sim ? '-simulation' : ''}.csv`);
  await writeOffboardingReport(rows, file);
  process.stdout.write(`Report of offboarding ${workflowId}${workflow.sim ? ' (SIMULATION)' : ''}: ${plural(rows.length, 'leaver')}, as of ${String(rows[0]?.reportedAt ?? 'now')}: ${path.resolve(file)}\n`);
  return true;
}
