import type { RowOutcome } from '../queue/row-outcome.js';
import { OPEN_PHASES, type LeaverState } from './leaver-state.js';
import { NOT_RUN_STATES, personOutcome, type StepBatchRef, type StepEnd } from './person-ends.js';
import type { WorkflowContext } from './workflow-context.js';
import { leavingOwner, type WorkflowRecord } from './workflow-store.js';

/** The step batches of an offboarding; `restore` exists in offboardings submitted since it was added. */
export type StepBatch = 'deactivate' | 'remove' | 'reactivate' | 'restore';

/** Every step batch of an offboarding, as person-rows.ts reads them (the restore batch's rows are downgrades). */
export function offboardingStepBatches(workflow: WorkflowRecord): StepBatchRef[] {
  return (['deactivate', 'remove', 'reactivate', 'restore'] as const).flatMap((step) => {
    const batchId = stepBatchIdOf(workflow, step);
    return batchId === undefined ? [] : [{ batchId, action: step === 'restore' ? 'downgrade' : step }];
  });
}

/** The batch id of a step batch of this workflow, if it has one. */
export function stepBatchIdOf(workflow: WorkflowRecord, step: StepBatch): string | undefined {
  return step === 'restore' ? workflow.restoreBatch : workflow[`${step}Batch`];
}

export type { StepEnd } from './person-ends.js';

/**
 * The outcome of a step that ends without its row running (refused at plan, undone, skipped after the re-check), in
 * that step's batch: each step batch holds exactly one outcome per leaver, so it finishes with the workflow.
 */
export function leaverOutcome(batchId: string, leaver: Pick<LeaverState, 'row' | 'line' | 'email' | 'userId'>, action: StepBatch, end: StepEnd, sim: boolean, at: Date): RowOutcome {
  return personOutcome(batchId, leaver, action === 'restore' ? 'downgrade' : action, end, sim, at);
}

/**
 * Records the given step outcomes (a step that already has one keeps it), and closes the leaver when it ended. A
 * reactivation that will not happen has no seat to restore either: its end is the restore step's too.
 */
export async function endSteps(context: WorkflowContext, workflow: WorkflowRecord, leaver: LeaverState, ends: Partial<Record<StepBatch, StepEnd>>): Promise<void> {
  const at = new Date(context.clock.now());
  const all = ends.reactivate !== undefined && ends.restore === undefined ? { ...ends, restore: ends.reactivate } : ends;
  for (const [step, end] of Object.entries(all) as [StepBatch, StepEnd][]) {
    const batchId = stepBatchIdOf(workflow, step);
    if (batchId === undefined) continue;
    const result = await context.batches.endRow(leaverOutcome(batchId, leaver, step, end, context.sim, at), NOT_RUN_STATES);
    if (result.kind === 'refused') context.logger.warn({ workflow: workflow.id, batch: batchId, row: leaver.row, state: result.state, end: end.outcome }, 'a step end was not recorded: the row is running or queued, and ends as it runs');
  }
  if (!OPEN_PHASES.has(leaver.phase)) await closeLeaver(context, workflow, leaver);
}

/** A leaver who reached an end is no longer leaving (may be a transfer target again); the workflow ends with its last. */
export async function closeLeaver(context: WorkflowContext, workflow: WorkflowRecord, leaver: LeaverState): Promise<void> {
  if (leaver.userId !== undefined) await context.store.clearLeaving(leaver.userId, leavingOwner(workflow.id, leaver.row));
  await context.store.closeLeaver(workflow, leaver.row);
}
