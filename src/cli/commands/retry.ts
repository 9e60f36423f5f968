import type { Command } from 'commander';
import { withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { cliActorNameOf } from '../cli-actor.js';
import { auditRetry } from '../../governance/audit/audit-batch-control.js';
import { openOffboarding } from '../offboarding-runtime.js';
import { plural } from '../../core/plural.js';

/**
 * `seatflow retry BATCH`: queue the failed and unknown rows again and resume a batch stopped by a refused token. A step
 * batch of an offboarding (`<offboarding>-deactivate|remove|reactivate|restore`) runs its failed steps again instead,
 * so the re-check comes before the row and the leaver's phase follows.
 */
export function defineRetryCommand(command: Command): void {
  command
    .argument('<batch>', 'batch id')
    .option('--reason <text>', 'the ticket or reason, kept in the audit trail');
  addCommonOptions(command).action(async (batchId: string, flags: CommonFlags & { reason?: string }) => {
    await withBatchRuntime(flags, async (runtime, batchRuntime) => {
      const { system } = batchRuntime;
      const steps = await openOffboarding(runtime, batchRuntime).retry(batchId);
      const result = steps ?? (await system.control.retry(batchId));
      const { requeued, resumed } = result;
      const rerun = steps?.rerun ?? 0;
      // Rows of a lifecycle's step are not run alone: their step re-reads and re-checks before the row.
      const leftToSteps = 'leftToSteps' in result ? result.leftToSteps : 0;
      if (leftToSteps > 0) process.stdout.write(`Batch ${batchId}: ${plural(leftToSteps, 'failed or cancelled row')} of a workflow's steps left as they are: such a row runs only through its step, which re-reads the person first\n`);
      if (requeued + resumed + rerun > 0) await auditRetry(batchRuntime.governance.audit, batchId, { by: cliActorNameOf(runtime), via: 'cli', reason: flags.reason }, { requeued, resumed, rerun });
      if (requeued + resumed + rerun === 0) {
        const batch = await system.store.get(batchId);
        process.stdout.write(`Batch ${batchId}: nothing ${leftToSteps > 0 ? 'else ' : ''}to retry (no failed, unknown or cancelled rows${leftToSteps > 0 ? ' outside steps' : ''}${batch === undefined ? '' : `; the batch is ${batch.state}`}); the batch was left as it is\n`);
        return;
      }
      if (steps !== undefined) {
        const what = steps.step === 'remove' ? 'removal (re-check, then remove)' : steps.step === 'deactivate' ? 'deactivation (state recorded, then deactivate)' : steps.step === 'restore' ? 'seat restore' : 'reactivation';
        process.stdout.write(`Batch ${batchId} (offboarding ${steps.workflowId}): ${plural(rerun, 'leaver')} whose ${what} failed run it again now, ${plural(requeued, 'row')} queued again, ${plural(resumed, 'waiting row')} resumed.\n`);
        process.stdout.write(`A worker takes them: seatflow worker (watch: seatflow status ${steps.workflowId})\n`);
        return;
      }
      process.stdout.write(`Batch ${batchId}: ${plural(requeued, 'failed, unknown or cancelled row')} queued again, ${plural(resumed, 'waiting row')} resumed. Process them with: seatflow worker\n`);
    });
  });
}
