import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import { createWorkflowStore } from '../../workflow/workflow-store.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { openOffboarding, workUntil } from '../offboarding-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { auditUndo } from '../../governance/audit/audit-undo.js';

interface UndoFlags extends CommonFlags {
  user?: string[];
  by?: string;
  reason?: string;
  wait?: boolean;
}

/**
 * `seatflow undo OFFBOARDING [--user EMAIL]...`: before the removal, cancel it and reactivate the leaver (the whole
 * offboarding, or the named users), recording who undid it; then run the reactivations with in-process workers.
 * Exit 0 when everything asked for was undone, 1 when something was refused or a reactivation failed.
 */
export function registerUndoCommand(program: Command): void {
  const command = program
    .command('undo')
    .description('undo an offboarding before the removal: reactivate and cancel the removal (per user or all)')
    .argument('<offboarding>', 'offboarding id (printed by seatflow offboard)')
    .option('--user <email>', 'only this leaver (repeat for several)', (value: string, all: string[] = []) => [...all, value])
    .option('--by <name>', 'who undoes it, recorded with the undo (default: your OS user name, or the operator it acts for)')
    .option('--reason <text>', 'the ticket or reason, kept in the audit trail')
    .option('--no-wait', 'queue the reactivations and return (a running seatflow worker takes them)');
  addCommonOptions(command).action(async (workflowId: string, flags: UndoFlags) => {
    if (flags.sim === true) throw new UsageError('undo acts on an offboarding in Redis: --sim has no offboarding to undo', 'Run it without --sim, against the target the offboarding was submitted for.');
    process.exitCode = await undo(workflowId, flags);
  });
}

async function undo(workflowId: string, flags: UndoFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const batchRuntime = await openBatchRuntime(runtime);
    const workflow = await createWorkflowStore(batchRuntime.redis.client, batchRuntime.system.keys, batchRuntime.target).get(workflowId);
    if (workflow === undefined) throw new UsageError(`no offboarding ${workflowId}`, 'Offboarding ids start with "o"; seatflow offboard printed it.');
    if (workflow.target !== batchRuntime.target) {
      throw new UsageError(
        `offboarding ${workflowId} was submitted for ${workflow.target}, not ${batchRuntime.target}`,
        workflow.sim ? 'It was a simulation: its reference server ended with that process.' : 'Set SMARTSHEET_API_BASE to its target.',
      );
    }
    const offboarding = openOffboarding(runtime, batchRuntime);
    const by = cliActorOf(runtime, flags.by).name;
    const results = (await offboarding.undo(workflowId, { by, ...(flags.user === undefined ? {} : { users: flags.user }) })) ?? [];
    await auditUndo(batchRuntime.governance.audit, { workflowId, by, reason: flags.reason, results });
    const reactivating = results.filter((result) => result.reactivating);
    if (reactivating.length > 0 && flags.wait !== false) {
      const { api, budget } = createBudgetedApi(runtime, batchRuntime);
      const interrupt = new AbortController();
      const onSignal = (): void => interrupt.abort();
      process.once('SIGINT', onSignal);
      try {
        await workUntil(runtime, batchRuntime, offboarding, { api, budget, done: async () => (await offboarding.settled(workflowId)) || (await offboarding.stoppedBatch(workflowId)) !== undefined, signal: interrupt.signal });
      } finally {
        process.off('SIGINT', onSignal);
      }
    }
    let problems = 0;
    for (const result of results) {
      let line = `${result.email}: ${result.result === 'undone' ? 'undone' : 'NOT undone'}: ${result.message}`;
      if (result.reactivating && result.row !== undefined) {
        const outcome = await batchRuntime.system.store.getOutcome(workflow.reactivateBatch, result.row);
        line += outcome === undefined ? ' (reactivation queued: a worker runs it)' : `; reactivation ${outcome.outcome}${outcome.outcome === 'succeeded' ? '' : `: ${outcome.message ?? ''}`}`;
        if (outcome !== undefined && outcome.outcome !== 'succeeded' && outcome.outcome !== 'unchanged') problems += 1;
      }
      if (result.result === 'refused') problems += 1;
      out.write(`${line}\n`);
    }
    if (results.length === 0) out.write('Nothing to undo.\n');
    out.write(`Recorded as undone by ${by}. Status: seatflow status ${workflowId}\n`);
    return problems > 0 ? 1 : 0;
  });
}
