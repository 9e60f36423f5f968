import path from 'node:path';
import { createJobRegistry } from '../../jobs/registry.js';
import { writeReport } from '../queue/report-writer.js';
import type { SubmitResult } from '../queue/submit-batch.js';
import { createBudgetedApi, defaultReportFile, workerSettingsOf, type BatchRuntime } from './batch-runtime.js';
import { watchBatch } from './batch-progress.js';
import { existingBatchLine, exitCodeOf, formatBatchSummary } from './batch-summary.js';
import type { CliRuntime } from './cli-runtime.js';
import { plural } from '../core/plural.js';
import { sendNotificationsHere } from './governance-runtime.js';

/**
 * A submitted batch, worked here to the end as `seatflow run` does: progress, summary, report; resolves the exit code.
 * For the commands that make a batch of their own (reconcile --apply, revert).
 */
export async function runBatchToEnd(runtime: CliRuntime, batch: BatchRuntime, submitted: SubmitResult): Promise<number> {
  const out = process.stdout;
  const batchId = submitted.batch.id;
  out.write(submitted.created ? `Batch ${batchId}: ${plural(submitted.jobsAdded, 'row')} queued\n` : existingBatchLine(submitted.batch));
  const { api, budget } = createBudgetedApi(runtime, batch);
  const pool = batch.system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime, batch) });
  const notifications = sendNotificationsHere(runtime, batch);
  let record;
  try {
    record = await watchBatch(batch.system.store, batchId, { label: `Running on ${runtime.targetLabel}` });
  } finally {
    await pool.close(runtime.config.worker.shutdownGraceMs);
    await notifications.finish();
  }
  record = (await batch.system.store.get(batchId)) ?? record;
  out.write(`\n${await formatBatchSummary(record, batch.system.store)}`);
  const reportFile = defaultReportFile(runtime, batchId, runtime.sim !== undefined);
  const rows = await writeReport(batch.system.store.outcomes(batchId), reportFile);
  out.write(`Report (${plural(rows, 'row')}${runtime.sim ? ', SIMULATION' : ''}): ${path.resolve(reportFile)}\n`);
  return exitCodeOf(record);
}
