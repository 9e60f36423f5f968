import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { reportFormatOf, writeReport } from '../../queue/report-writer.js';
import { defaultReportFile, withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { writeOffboardingReportOf } from '../offboarding-runtime.js';
import { writeHrWorkflowReport } from '../hr-workflow-runtime.js';
import { writeDomainMigrationReport } from '../domain-migration-runtime.js';
import { plural } from '../../core/plural.js';

interface ReportFlags extends CommonFlags {
  out?: string;
}

/** `seatflow report BATCH [--out FILE.csv|FILE.jsonl]`: one line per row, with its outcome. */
export function defineReportCommand(command: Command): void {
  command
    .argument('<batch>', 'batch id, or the id of an offboarding, joiners or movers workflow (one row per person)')
    .option('--out <file>', 'FILE.csv or FILE.jsonl (default: <dataDir>/reports/<batch>.csv)');
  addCommonOptions(command).action(async (batchId: string, flags: ReportFlags) => {
    if (flags.out !== undefined) reportFormatOf(flags.out);
    await withBatchRuntime(flags, async (runtime, batchRuntime) => {
      const { system } = batchRuntime;
      if (await writeOffboardingReportOf(runtime, batchRuntime, batchId, flags.out)) return;
      if (await writeHrWorkflowReport(runtime, batchRuntime, batchId, flags.out)) return;
      if (await writeDomainMigrationReport(runtime, batchRuntime, batchId, flags.out)) return;
      const batch = await system.store.get(batchId);
      if (batch === undefined) throw new UsageError(`no batch ${batchId}`, 'List batches with: seatflow status');
      const file = flags.out ?? defaultReportFile(runtime, batchId, batch.sim);
      const rows = await writeReport(system.store.outcomes(batchId), file);
      const pending = batch.total - rows;
      process.stdout.write(
        `Report of ${batchId}${batch.sim ? ' (SIMULATION)' : ''}: ${plural(rows, 'row')}${pending > 0 ? `, ${pending} still pending (not in the report)` : ''}: ${path.resolve(file)}\n`,
      );
    });
  });
}
