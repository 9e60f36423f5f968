import type { Command } from 'commander';
import { UsageError } from '../../core/seatflow-error.js';
import type { BatchStore } from '../../queue/batch-store.js';
import type { RowOutcome } from '../../queue/row-outcome.js';
import { undoDomainMigration } from '../domain-migration-runtime.js';
import { hrWorkflowsOf } from '../../sync/hr-workflows.js';
import type { CancelResult } from '../../workflow/cancel-pending.js';
import type { UndoResult } from '../../workflow/undo-offboarding.js';
import { createWorkflowStore, type WorkflowRecord } from '../../workflow/workflow-store.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { openOffboarding, workUntil } from '../offboarding-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { auditUndo, auditWorkflowUndo } from '../../governance/audit/audit-undo.js';

interface UndoFlags extends CommonFlags {
  user?: string[];
  by?: string;
  reason?: string;
  wait?: boolean;
}

/**
 * `seatflow undo OFFBOARDING [--user EMAIL]...`: before the removal, cancel it and reactivate the leaver (the whole
 * offboarding, or the named users), recording who undid it; then run the reactivations (and the seat restores that
 * follow them) with in-process workers. One line per leaver says what was done and what the reactivation cost. Exit 0
 * when everything asked for is undone (now or before), 1 when something was refused or a reactivation failed.
 */
export function defineUndoCommand(command: Command): void {
  command
    .argument('<workflow>', 'offboarding id (printed by seatflow offboard), or joiners or movers workflow id (printed by seatflow sync)')
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
    if (workflow === undefined) {
      const by = cliActorOf(runtime, flags.by).name;
      const request = { by, ...(flags.user === undefined ? {} : { users: flags.user }) };
      const cancelled = (await hrWorkflowsOf(openOffboarding(runtime, batchRuntime)).undo(workflowId, request)) ?? (await undoDomainMigration(runtime, batchRuntime, workflowId, request));
      if (cancelled !== undefined) {
        await auditWorkflowUndo(batchRuntime.governance.audit, { workflowId, by, reason: flags.reason, results: cancelled });
        return reportCancelled(workflowId, cancelled);
      }
      throw new UsageError(`no offboarding, joiners, movers or domain migration workflow ${workflowId}`, 'Offboarding ids start with "o" (seatflow offboard printed it), joiners with "j" and movers with "m" (seatflow sync printed them), domain migrations with "d" (seatflow migrate domain).');
    }
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
      const { line, failed } = await describeUndo(result, workflow, batchRuntime.system.store);
      if (failed) problems += 1;
      out.write(`${line}\n`);
    }
    const count = (kind: UndoResult['result']) => results.filter((result) => result.result === kind).length;
    if (results.length === 0) out.write(`Nothing to undo: offboarding ${workflowId} has no leaver that was ever acted on.\n`);
    else if (count('already-undone') === results.length) out.write(`Nothing to undo: ${results.length === 1 ? 'it was' : `all ${results.length} were`} already undone.\n`);
    else out.write(`${count('undone')} undone, ${count('already-undone')} already undone before, ${count('refused')} not undone.\n`);
    if (count('undone') > 0) out.write(`Recorded as undone by ${by}. `);
    out.write(`Status: seatflow status ${workflowId}\n`);
    return problems > 0 ? 1 : 0;
  });
}

/** What undo did to a joiners or movers workflow: each person stopped before their step, or why not. */
function reportCancelled(workflowId: string, results: readonly CancelResult[]): number {
  const out = process.stdout;
  for (const result of results) out.write(`${result.email}: ${result.result === 'undone' ? 'undone' : result.result === 'already-undone' ? 'nothing to do' : 'NOT undone'}: ${result.message}\n`);
  const count = (kind: CancelResult['result']) => results.filter((result) => result.result === kind).length;
  out.write(`${count('undone')} undone, ${count('already-undone')} already undone before, ${count('refused')} not undone. Status: seatflow status ${workflowId}\n`);
  return count('refused') > 0 ? 1 : 0;
}

/**
 * One leaver's line: what undo did, what the reactivation cost and whether the seat before was given back. A refusal,
 * a failed reactivation or a failed seat restore is a problem (exit 1); a leaver undone before is not.
 */
async function describeUndo(result: UndoResult, workflow: WorkflowRecord, store: BatchStore): Promise<{ line: string; failed: boolean }> {
  if (result.result === 'already-undone') return { line: `${result.email}: nothing to do: ${result.message}`, failed: false };
  if (result.result === 'refused') return { line: `${result.email}: NOT undone: ${result.message}`, failed: true };
  if (!result.reactivating || result.row === undefined) return { line: `${result.email}: undone: ${result.message}`, failed: false };
  const reactivated = await store.getOutcome(workflow.reactivateBatch, result.row);
  const restored = workflow.restoreBatch === undefined ? undefined : await store.getOutcome(workflow.restoreBatch, result.row);
  const ok = (outcome: RowOutcome | undefined) => outcome === undefined || outcome.outcome === 'succeeded' || outcome.outcome === 'unchanged' || outcome.outcome === 'skipped';
  let line = `${result.email}: undone: `;
  line += reactivated === undefined ? `${result.message} (a worker runs it)` : `removal cancelled; reactivation ${reactivated.outcome}${ok(reactivated) ? '' : `: ${reactivated.message ?? ''}`}`;
  if (result.seat !== undefined) line += `\n    seat: ${result.seat}`;
  if (restored !== undefined && restored.outcome !== 'skipped') line += `; seat restore ${restored.outcome}${ok(restored) ? '' : `: ${restored.message ?? ''}`}`;
  return { line, failed: !ok(reactivated) || !ok(restored) };
}
