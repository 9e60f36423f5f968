import path from 'node:path';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { formatReconciliation } from '../../reconcile/format-reconciliation.js';
import { runSummary } from '../../reconcile/reconciliation-report.js';
import { runReconciliation, type ReconciliationRun } from '../../reconcile/run-reconciliation.js';
import { writeReport } from '../../queue/report-writer.js';
import { createBudgetedApi, defaultReportFile, openBatchRuntime, workerSettingsOf, type BatchRuntime } from '../batch-runtime.js';
import { watchBatch } from '../batch-progress.js';
import { existingBatchLine, exitCodeOf, formatBatchSummary } from '../batch-summary.js';
import { withCliRuntime, type CliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { confirmOnTerminal } from '../manifest-options.js';
import { manualRunKey, reconcileReportDir } from '../reconcile-runtime.js';
import { printed } from '../../core/printable.js';
import { plural } from '../../core/plural.js';

interface ReconcileFlags extends CommonFlags {
  apply?: boolean;
  yes?: boolean;
  json?: boolean;
}

/**
 * `seatflow reconcile POLICY`: the plan of the difference between the policy's seats and live seats (changes
 * nothing); with --apply, the plan as a batch through the usual queue, run to the end here. Exit 0 done (or only
 * planned), 1 rows failed, 2 the policy, a limit or the guardrails refused the run.
 */
export function defineReconcileCommand(command: Command): void {
  command
    .argument('<policy>', 'policy file (JSON), see jobs/examples/license-policy.json')
    .option('--apply', 'submit the plan as a batch and run it to the end (without it nothing changes)')
    .option('--yes', 'confirm changes above the guardrails without a prompt')
    .option('--json', 'print the run as JSON (plan only; with --apply the summary follows)');
  addCommonOptions(command).action(async (policy: string, flags: ReconcileFlags) => {
    process.exitCode = await reconcile(policy, flags);
  });
}

async function reconcile(policyPath: string, flags: ReconcileFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
    const runAt = new Date();
    const run = await runReconciliation({
      policyPath,
      api,
      guardrails: runtime.config.guardrails,
      // Ages (last login, seat) on the service's clock; the run is named by this machine's time.
      clock: runtime.serviceClock,
      runKey: manualRunKey(policyPath),
      runAt,
      apply: flags.apply === true,
      system: batch.system,
      confirmGuardrails: async (check) => {
        await confirmOnTerminal(check, flags, flags.json === true);
        return true;
      },
      reportDir: reconcileReportDir(runtime),
    });
    if (flags.json === true) out.write(`${JSON.stringify({ target: runtime.targetLabel, ...runSummary(run.plan, run.disposition), changes: run.plan.changes, rows: run.plan.plan.rows }, null, 2)}\n`);
    else out.write(`Target: ${runtime.targetLabel}\n${formatReconciliation(run.plan)}`);
    out.write(`Plan report: ${path.resolve(run.report.csv)} (run ${run.disposition.runId})\n`);
    if (flags.apply !== true) {
      out.write('Nothing was changed. Add --apply to submit these changes as a batch.\n');
      return 0;
    }
    if (run.disposition.heldBecause !== undefined) {
      out.write(printed`Nothing was changed: ${run.disposition.heldBecause.join('; ')}\n`);
      return 2;
    }
    if (run.disposition.nothingToChange === true) {
      out.write('No seat needs to change: no batch was made.\n');
      return 0;
    }
    if (run.submitted === undefined) throw new Error('an applied run has no batch');
    return runToEnd(runtime, batch, run);
  });
}

/** The batch of an applied run, worked here to the end, as `seatflow run` does: progress, summary, report. */
async function runToEnd(runtime: CliRuntime, batch: BatchRuntime, run: ReconciliationRun): Promise<number> {
  const out = process.stdout;
  const submitted = run.submitted!;
  const batchId = submitted.batch.id;
  out.write(submitted.created ? `Batch ${batchId}: ${plural(submitted.jobsAdded, 'row')} queued\n` : existingBatchLine(submitted.batch));
  const { api, budget } = createBudgetedApi(runtime, batch);
  const pool = batch.system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime) });
  let record;
  try {
    record = await watchBatch(batch.system.store, batchId, { label: `Running on ${runtime.targetLabel}` });
  } finally {
    await pool.close(runtime.config.worker.shutdownGraceMs);
  }
  record = (await batch.system.store.get(batchId)) ?? record;
  out.write(`\n${await formatBatchSummary(record, batch.system.store)}`);
  const reportFile = defaultReportFile(runtime, batchId, runtime.sim !== undefined);
  const rows = await writeReport(batch.system.store.outcomes(batchId), reportFile);
  out.write(`Report (${plural(rows, 'row')}${runtime.sim ? ', SIMULATION' : ''}): ${path.resolve(reportFile)}\n`);
  return exitCodeOf(record);
}
