import type { Command } from 'commander';
import { withBatchRuntime } from '../batch-runtime.js';
import { countsLine, formatBatchSummary } from '../batch-summary.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { watchBatch } from '../batch-progress.js';
import { farParkedLines, farParkedRows } from '../far-parked-rows.js';
import { printOffboardingStatus } from '../offboarding-runtime.js';
import { printHrWorkflowStatus } from '../hr-workflow-runtime.js';
import { printDomainMigrationStatus } from '../domain-migration-runtime.js';
import { formatApproval } from '../format-approval.js';
import { printable, printed } from '../../core/printable.js';

interface StatusFlags extends CommonFlags {
  json?: boolean;
  watch?: boolean;
}

/** `seatflow status [BATCH]`: one batch's counts and failed rows, or the list of recent batches. */
export function defineStatusCommand(command: Command): void {
  command
    .argument('[batch]', 'batch id, or the id of an offboarding, joiners, movers or domain migration workflow')
    .option('--watch', 'follow the batch until it ends')
    .option('--json', 'print JSON');
  addCommonOptions(command).action(async (batchId: string | undefined, flags: StatusFlags) => {
    await withBatchRuntime(flags, async (runtime, batchRuntime) => {
      const { system } = batchRuntime;
      if (batchId === undefined) {
        const batches = await system.store.list(50);
        if (flags.json === true) {
          process.stdout.write(`${JSON.stringify(batches)}\n`);
        } else if (batches.length === 0) {
          process.stdout.write('No batches.\n');
        } else {
          for (const b of batches) {
            process.stdout.write(`${b.id}  ${b.state.padEnd(10)} ${b.createdAt}  ${b.sim ? '[SIMULATION] ' : ''}${printable(b.source)}  ${countsLine(b)}\n`);
          }
        }
        return;
      }
      if (await printOffboardingStatus(runtime, batchRuntime, batchId, flags.json === true)) return;
      if (await printHrWorkflowStatus(runtime, batchRuntime, batchId, flags.json === true)) return;
      if (await printDomainMigrationStatus(runtime, batchRuntime, batchId, flags.json === true)) return;
      let batch = await system.store.get(batchId);
      const request = batch === undefined ? await batchRuntime.governance.gate.get(batchId) : undefined;
      if (request !== undefined) {
        // Not queued yet: a change waiting for (or refused) approval under the id it will have.
        process.stdout.write(flags.json === true ? `${JSON.stringify(request)}\n` : formatApproval(request, await batchRuntime.governance.approvals.lines(batchId), { linesShown: 20, rate: runtime.config.rateLimit }));
        return;
      }
      if (batch === undefined) {
        // Most often the id was made against another Redis: a shell without the REDIS_URL of the services looks in
        // the private Redis of its home instead. Say where this looked.
        const where = batchRuntime.redis.kind === 'embedded' ? `the private Redis of ${runtime.config.dataDir} (REDIS_URL is not set)` : batchRuntime.redis.description;
        process.stderr.write(
          printed`seatflow: no batch, offboarding or HR workflow ${batchId} in ${where}, queue prefix ${runtime.config.redis.queuePrefix}\n` +
            '  List what is there with: seatflow status. An id made elsewhere is found with the REDIS_URL and SEATFLOW_QUEUE_PREFIX it was made with.\n',
        );
        process.exitCode = 2;
        return;
      }
      if (flags.watch === true) batch = await watchBatch(system.store, batchId, { label: `Watching ${batchId}` });
      const farParked = await farParkedRows(system, runtime.config, batch);
      if (flags.json === true) process.stdout.write(`${JSON.stringify({ ...batch, ...(farParked.length > 0 ? { parkedFarAhead: farParked } : {}) })}\n`);
      else process.stdout.write(`${await formatBatchSummary(batch, system.store)}${farParkedLines(batch, farParked)}`);
    });
  });
}
