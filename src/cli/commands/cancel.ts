import type { Command } from 'commander';
import { withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { cliActorNameOf } from '../cli-actor.js';
import { auditCancel } from '../../governance/audit/audit-batch-control.js';
import { plural } from '../../core/plural.js';

/** `seatflow cancel BATCH`: rows not yet started end `cancelled`; rows running now finish. */
export function defineCancelCommand(command: Command): void {
  command
    .argument('<batch>', 'batch id')
    .option('--reason <text>', 'the ticket or reason, kept in the audit trail');
  addCommonOptions(command).action(async (batchId: string, flags: CommonFlags & { reason?: string }) => {
    await withBatchRuntime(flags, async (runtime, { system, governance }) => {
      const by = cliActorNameOf(runtime);
      const { cancelled, running } = await system.control.cancel(batchId, `${by} (seatflow cancel)`);
      await auditCancel(governance.audit, batchId, { by, via: 'cli', reason: flags.reason }, { cancelled, running });
      process.stdout.write(`Batch ${batchId}: ${plural(cancelled, 'row')} cancelled${running > 0 ? `, ${plural(running, 'running row')} will finish` : ''}.\n`);
    });
  });
}
