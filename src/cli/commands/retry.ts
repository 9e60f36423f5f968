import type { Command } from 'commander';
import { withBatchRuntime } from '../batch-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { plural } from '../../core/plural.js';

/** `seatflow retry BATCH`: queue the failed and unknown rows again and resume a batch stopped by a refused token. */
export function defineRetryCommand(command: Command): void {
  command
    .argument('<batch>', 'batch id');
  addCommonOptions(command).action(async (batchId: string, flags: CommonFlags) => {
    await withBatchRuntime(flags, async (runtime, { system }) => {
      const { requeued, resumed } = await system.control.retry(batchId);
      if (requeued + resumed === 0) {
        const batch = await system.store.get(batchId);
        process.stdout.write(`Batch ${batchId}: nothing to retry (no failed, unknown or cancelled rows${batch === undefined ? '' : `; the batch is ${batch.state}`}); the batch was left as it is\n`);
        return;
      }
      process.stdout.write(`Batch ${batchId}: ${plural(requeued, 'failed, unknown or cancelled row')} queued again, ${plural(resumed, 'waiting row')} resumed. Process them with: seatflow worker\n`);
    });
  });
}
