import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { withBatchRuntime } from '../batch-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { addRequestOptions, type RequestFlags } from '../request-options.js';

/** `seatflow reject ID --reason TEXT`: an approver refuses a waiting change (its requester may withdraw it). */
export function defineRejectCommand(command: Command): void {
  command.argument('<id>', 'the change request');
  addCommonOptions(addRequestOptions(command)).action(async (id: string, flags: CommonFlags & RequestFlags) => {
    if (flags.reason === undefined || flags.reason.trim() === '') throw new UsageError('reject needs --reason "…" (kept in the audit trail and shown to the requester)');
    await withBatchRuntime(flags, async (runtime, batch) => {
      const actor = cliActorOf(runtime, flags.by);
      const record = await batch.governance.gate.reject(id, actor, flags.reason!);
      process.stdout.write(`${record.kind} ${id} rejected by ${actor.name}: ${flags.reason}. Nothing was changed.\n`);
    });
  });
}
