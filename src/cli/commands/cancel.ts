import type { Command } from 'commander';
import { withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { plural } from '../../core/plural.js';

/** `seatflow cancel BATCH`: rows not yet started end `cancelled`; rows running now finish. */
export function defineCancelCommand(command: Command): void {
  command
    .argument('<batch>', 'batch id');
  addCommonOptions(command).action(async (batchId: string, flags: CommonFlags) => {
    await withBatchRuntime(flags, async (runtime, { system }) => {
      const { cancelled, running } = await system.control.cancel(batchId);
      process.stdout.write(`Batch ${batchId}: ${plural(cancelled, 'row')} cancelled${running > 0 ? `, ${plural(running, 'running row')} will finish` : ''}.\n`);
    });
  });
}
