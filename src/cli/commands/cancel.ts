import type { Command } from 'commander';
import { openBatchRuntime } from '../batch-runtime.js';
import { createCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';

/** `seatflow cancel BATCH`: rows not yet started end `cancelled`; rows running now finish. */
export function registerCancelCommand(program: Command): void {
  const command = program
    .command('cancel')
    .description('cancel a batch: queued rows end cancelled, rows already running finish')
    .argument('<batch>', 'batch id');
  addCommonOptions(command).action(async (batchId: string, flags: CommonFlags) => {
    const runtime = await createCliRuntime({
      requireToken: false,
      ...(flags.config === undefined ? {} : { configFile: flags.config }),
      flags: overridesFromFlags(flags),
    });
    try {
      const { system } = await openBatchRuntime(runtime);
      const { cancelled, running } = await system.control.cancel(batchId);
      process.stdout.write(`Batch ${batchId}: ${cancelled} rows cancelled${running > 0 ? `, ${running} running rows will finish` : ''}.\n`);
    } finally {
      await runtime.close();
    }
  });
}
