import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { countsLine, existingBatchLine } from '../batch-summary.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions } from '../common-options.js';
import { addAgainOption, againOptionOf, refuseFinishedResubmission, type AgainFlags } from '../finished-batch.js';
import { addManifestOptions, batchOptionsOf, confirmOnTerminal, planFromFlags, type ManifestFlags } from '../manifest-options.js';
import { awaitingApprovalText, gateManifestBatch } from '../governance-runtime.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';
import { plural } from '../../core/plural.js';

interface SubmitFlags extends ManifestFlags, AgainFlags, RequestFlags {
  json?: boolean;
}

/** `seatflow submit MANIFEST`: plan and queue a batch for `seatflow worker` processes; prints the batch id. */
export function defineSubmitCommand(command: Command): void {
  command
    .option('--json', 'print the batch record as JSON');
  addCommonOptions(addRequestOptions(addAgainOption(addManifestOptions(command)))).action(async (manifest: string, flags: SubmitFlags) => {
    if (flags.sim === true) {
      // Each --sim process has its own simulated service, so no worker could ever reach this batch's target.
      throw new UsageError(
        'submit --sim would queue a batch for a simulated service that ends with this command: no worker could reach it',
        'Try it in one process with `seatflow run MANIFEST --sim`, or start `seatflow sim` and point submit and worker at it with SMARTSHEET_API_BASE (and SMARTSHEET_ACCESS_TOKEN=sim-admin-token).',
      );
    }
    await withCliRuntime(flags, {}, async (runtime) => {
      const batchRuntime = await openBatchRuntime(runtime);
      const { api } = createBudgetedApi(runtime, batchRuntime, { retryReads: true });
      const { plan, guardrails } = await planFromFlags(manifest, flags, api, runtime.config, runtime.serviceClock.now());
      await confirmOnTerminal(guardrails, flags, flags.json === true);
      const gated = await gateManifestBatch(runtime, batchRuntime, { manifestPath: manifest, plan, guardrails, flags, options: { ...batchOptionsOf(flags), ...againOptionOf(flags) } });
      const out = process.stdout;
      if (gated.status === 'awaiting-approval') {
        out.write(flags.json === true ? `${JSON.stringify({ awaitingApproval: true, request: gated.request, created: gated.created, target: runtime.targetLabel })}\n` : awaitingApprovalText(gated.request, gated.created, false));
        process.exitCode = EXIT_AWAITING_APPROVAL;
        return;
      }
      const result = gated.value;
      if (!result.created) refuseFinishedResubmission(result.batch, manifest, 'submit');
      if (flags.json === true) {
        out.write(`${JSON.stringify({ ...result.batch, created: result.created, jobsAdded: result.jobsAdded, target: runtime.targetLabel })}\n`);
        return;
      }
      out.write(`Target: ${runtime.targetLabel}\n`);
      out.write(
        result.created
          ? `Batch ${result.batch.id} submitted: ${plural(result.jobsAdded, 'row')} queued (${countsLine(result.batch)})\n`
          : existingBatchLine(result.batch),
      );
      out.write(`Process it with: seatflow worker   Watch it with: seatflow status ${result.batch.id}\n`);
    });
  });
}
