import type { BatchControl } from '../queue/batch-control.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { stepBatchIdOf, type StepBatch } from './leaver-ends.js';
import { stepOf, type LeaverPhase, type LeaverState } from './leaver-state.js';
import { stepJobId, stepJobOptions, type StepJobData } from './step-job.js';
import { queueReactivation } from './undo-offboarding.js';
import type { WorkflowContext } from './workflow-context.js';
import { leavingOwner, type WorkflowRecord } from './workflow-store.js';

export interface StepBatchRetry {
  workflowId: string;
  step: StepBatch;
  /** Leavers whose step runs again from its start (re-read, re-check, then the row): their phase follows. */
  rerun: number;
  /** Rows queued again as they were (a step waiting on an unknown outcome). */
  requeued: number;
  /** Rows that waited as delayed jobs and run now. */
  resumed: number;
}

/** `o1a2b3c4d5e6f-remove` → the offboarding and step it belongs to; undefined for any other batch id. */
export function stepBatchOf(batchId: string): { workflowId: string; step: StepBatch } | undefined {
  const match = /^(o[0-9a-f]{12})-(deactivate|remove|reactivate|restore)$/.exec(batchId);
  return match === null ? undefined : { workflowId: match[1]!, step: match[2] as StepBatch };
}

const RETRIED: ReadonlySet<RowOutcome['outcome']> = new Set(['failed', 'unknown', 'cancelled']);

/** Where a failed leaver's step starts again, and the step batches whose outcomes that step has yet to write. */
const RERUN = {
  deactivate: { phase: 'scheduled', reopens: ['deactivate', 'remove', 'reactivate', 'restore'] },
  remove: { phase: 'holding', reopens: ['remove', 'reactivate', 'restore'] },
} as const satisfies Record<string, { phase: LeaverPhase; reopens: readonly StepBatch[] }>;

/**
 * `seatflow retry` of a step batch. A row of a step batch is a step's last act: run alone it would skip the step's
 * re-read and re-check, and the leaver's phase would stay `failed` whatever the row did. So a leaver whose step failed
 * goes back to the phase the step starts from (`scheduled` for the deactivation, `holding` for the removal: undo can
 * act again), its outcomes in this and the later step batches are forgotten, and the step is queued to run now: it
 * re-reads the user, re-checks the transfer target and runs the row, and the phase follows. An undone leaver whose
 * reactivation (or seat restore) failed gets its reactivate step again. A step waiting on an `unknown` row has that
 * row queued again as it was (it confirms first). Refused leavers and undone ones are never deactivated or removed by
 * it. Nothing to retry: nothing is changed, not even a finished time.
 */
export async function retryStepBatch(context: WorkflowContext, control: BatchControl, workflow: WorkflowRecord, step: StepBatch): Promise<StepBatchRetry> {
  const batchId = stepBatchIdOf(workflow, step);
  if (batchId === undefined) return { workflowId: workflow.id, step, rerun: 0, requeued: 0, resumed: 0 };
  const failed: LeaverState[] = [];
  const undone: LeaverState[] = [];
  const rows = new Set<number>();
  for (const leaver of await context.store.leavers(workflow.id)) {
    const outcome = await context.batches.getOutcome(batchId, leaver.row);
    if (outcome === undefined || !RETRIED.has(outcome.outcome)) continue;
    if ((step === 'deactivate' || step === 'remove') && leaver.phase === 'failed') failed.push(leaver);
    else if ((step === 'reactivate' || step === 'restore') && leaver.phase === 'undone') undone.push(leaver);
    else if ((step === 'deactivate' && leaver.phase === 'deactivating') || (step === 'remove' && leaver.phase === 'removing')) rows.add(leaver.row);
  }
  let rerun = 0;
  if (step === 'deactivate' || step === 'remove') {
    for (const leaver of failed) if (await rerunStep(context, control, workflow, leaver, step)) rerun += 1;
  }
  for (const leaver of undone) {
    await forgetOutcomes(context, control, workflow, leaver.row, step === 'reactivate' ? ['reactivate', 'restore'] : ['restore']);
    await queueReactivation(context, workflow, leaver.row);
    rerun += 1;
  }
  const { requeued, resumed } = rows.size === 0 ? { requeued: 0, resumed: 0 } : await control.retry(batchId, rows);
  return { workflowId: workflow.id, step, rerun, requeued, resumed };
}

async function rerunStep(context: WorkflowContext, control: BatchControl, workflow: WorkflowRecord, leaver: LeaverState, step: 'deactivate' | 'remove'): Promise<boolean> {
  const { phase, reopens } = RERUN[step];
  const at = new Date(context.clock.now());
  const reopened = await context.store.update(workflow.id, leaver.row, (current) => {
    if (current.phase !== 'failed') return undefined;
    const { reason: _reason, transferUsed: _transferUsed, ...rest } = current;
    return { ...rest, phase, steps: [...current.steps, stepOf('retry', phase, at, `the ${step} step runs again (seatflow retry ${workflow[`${step}Batch`]}); it failed: ${current.reason ?? '?'}`)] };
  });
  if (reopened === undefined) return false;
  await forgetOutcomes(context, control, workflow, leaver.row, reopens);
  await context.store.openLeavers(workflow.id, [reopened.row]);
  await context.store.setState(workflow.id, 'open');
  if (reopened.userId !== undefined) await context.store.markLeaving([{ userId: reopened.userId, owner: leavingOwner(workflow.id, reopened.row) }]);
  const now = context.clock.now();
  const data: StepJobData = { workflowId: workflow.id, row: reopened.row, step, dueAt: now };
  await context.steps.add(workflow.id, [data]);
  // A step BullMQ gave up on is still held as failed under its id: without removing it, the add would do nothing.
  await context.stepQueue.remove(stepJobId(workflow.id, reopened.row, step));
  await context.stepQueue.add(step, data, stepJobOptions(data, now));
  return true;
}

/** Forgets the leaver's outcomes in these step batches, so the step that writes them can run again. */
async function forgetOutcomes(context: WorkflowContext, control: BatchControl, workflow: WorkflowRecord, row: number, batches: readonly StepBatch[]): Promise<void> {
  for (const batch of batches) {
    const batchId = stepBatchIdOf(workflow, batch);
    if (batchId !== undefined) await control.forgetForStep(batchId, row, context.rowsQueue.name);
  }
}
