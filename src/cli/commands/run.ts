import path from 'node:path';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { reportFormatOf, writeReport } from '../../queue/report-writer.js';
import { createBudgetedApi, defaultReportFile, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { watchBatch } from '../batch-progress.js';
import { existingBatchLine, exitCodeOf, formatBatchSummary } from '../batch-summary.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions } from '../common-options.js';
import { addAgainOption, againOptionOf, refuseFinishedResubmission, type AgainFlags } from '../finished-batch.js';
import { addMetricsOptions, metricsOf, type MetricsFlags } from '../metrics-options.js';
import { addManifestOptions, batchOptionsOf, confirmOnTerminal, planFromFlags, type ManifestFlags } from '../manifest-options.js';
import { printable, printed } from '../../core/printable.js';
import { plural } from '../../core/plural.js';
import { batchPlanCalls } from '../../plan/batch-plan-calls.js';
import { callsToApply, callsToApplyLine } from '../../plan/calls-at-rate.js';
import { awaitingApprovalText, gateManifestBatch, sendNotificationsHere } from '../governance-runtime.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';

interface RunFlags extends ManifestFlags, AgainFlags, MetricsFlags, RequestFlags {
  report?: string;
}

/**
 * `seatflow run MANIFEST`: plan, guardrails, submit, process with in-process workers to the end, summary, report.
 * Exit 0 when every row succeeded, was unchanged or skipped; 1 when some failed (or were cancelled, or the batch
 * stopped on a refused token); 2 when the manifest or configuration was refused.
 */
export function defineRunCommand(command: Command): void {
  command
    .option('--report <file>', 'report file, .csv or .jsonl (default: <dataDir>/reports/<batch>.csv)')
    .option('--concurrency <n>', 'rows processed at once by this process');
  addCommonOptions(addRequestOptions(addMetricsOptions(addAgainOption(addManifestOptions(command))))).action(async (manifest: string, flags: RunFlags) => {
    process.exitCode = await runManifest(manifest, flags);
  });
}

async function runManifest(manifestPath: string, flags: RunFlags): Promise<number> {
  if (flags.report !== undefined) reportFormatOf(flags.report, '--report');
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const observed = await metricsOf(runtime, flags);
    const metrics = observed === undefined ? {} : { metrics: observed.metrics };
    const batchRuntime = await openBatchRuntime(runtime, metrics);
    const { system } = batchRuntime;
    const { api, budget } = createBudgetedApi(runtime, batchRuntime, metrics);
    await observed?.serve();
    out.write(`Target: ${runtime.targetLabel}\n`);

    const preflightApi = createBudgetedApi(runtime, batchRuntime, { retryReads: true, ...metrics }).api;
    const { plan, guardrails, manifest } = await planFromFlags(manifestPath, flags, preflightApi, runtime.config, runtime.serviceClock.now());
    for (const warning of manifest.warnings) out.write(printed`note: ${warning}\n`);
    const s = plan.summary;
    out.write(
      `Plan: ${plural(s.total, 'row')}: ${s.change} to change, ${s['no-op']} already done, ${s.refused} refused, ${s['not-found']} not found, ` +
        `${s.conflict} conflicting, ${s.invalid} invalid (pre-flight used ${plural(plan.apiCalls, 'call')})\n`,
    );
    // Said before the guardrails' question, as every plan says it: what the run will spend, and for how long.
    out.write(`${callsToApplyLine(callsToApply(batchPlanCalls(plan), runtime.config.rateLimit))}\n`);
    await confirmOnTerminal(guardrails, flags);

    // The workers start before the rows are queued: a large batch is queued in slices, and its first rows run (and
    // spend the service's full bucket) while the rest are still being added.
    const pool = system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime, batchRuntime) });
    const notifications = sendNotificationsHere(runtime, batchRuntime);
    const interrupt = new AbortController();
    const onSignal = (): void => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let batch;
    let batchId: string;
    try {
      // Through the approvals gate: queued now, or waiting for a second person (nothing runs then).
      const gated = await gateManifestBatch(runtime, batchRuntime, { manifestPath, plan, guardrails, flags, options: { ...batchOptionsOf(flags), ...againOptionOf(flags) } });
      if (gated.status === 'awaiting-approval') {
        out.write(awaitingApprovalText(gated.request, gated.created, runtime.sim !== undefined));
        return EXIT_AWAITING_APPROVAL;
      }
      const submitted = gated.value;
      if (!submitted.created) refuseFinishedResubmission(submitted.batch, manifestPath, 'run');
      batchId = submitted.batch.id;
      out.write(submitted.created ? `Batch ${batchId}: ${plural(submitted.jobsAdded, 'row')} queued\n` : existingBatchLine(submitted.batch));
      batch = await watchBatch(system.store, batchId, { label: `Running on ${runtime.targetLabel}`, signal: interrupt.signal });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await pool.close(runtime.config.worker.shutdownGraceMs);
      await notifications.finish();
    }
    batch = (await system.store.get(batchId)) ?? batch;

    out.write(`\n${await formatBatchSummary(batch, system.store)}`);
    if (interrupt.signal.aborted && batch.state !== 'finished') {
      out.write(
        runtime.sim
          ? 'Interrupted. The simulation ends with this process, so the rest of this batch cannot be resumed.\n'
          : `Interrupted: the remaining rows stay queued. Resume with: seatflow worker   (watch: seatflow status ${batchId})\n`,
      );
    }
    if (batch.state === 'stopped') out.write(printed`Stopped: ${batch.message ?? 'the access token was refused'}\n`);
    const reportFile = flags.report ?? defaultReportFile(runtime, batchId, runtime.sim !== undefined);
    const rows = await writeReport(system.store.outcomes(batchId), reportFile);
    out.write(`Report (${plural(rows, 'row')}${runtime.sim ? ', SIMULATION' : ''}): ${printable(path.resolve(reportFile))}\n`);
    return interrupt.signal.aborted && batch.state !== 'finished' ? 130 : exitCodeOf(batch);
  });
}
