import type { BatchControl } from '../queue/batch-control.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { stepOf, type LeaverPhase, type LeaverState } from './leaver-state.js';
import { stepJobId, stepJobOptions, type StepJobData, type StepName } from './step-job.js';
import type { WorkflowContext } from './workflow-context.js';
import { leavingOwner, type WorkflowRecord } from './workflow-store.js';

export type StepBatchName = 'deactivate' | 'remove' | 'reactivate';

export interface StepBatchRetry {
  workflowId: string;
  step: StepBatchName;
  /** Leavers whose step runs again from its start (re-read, re-check, then the row): their phase follows. */
  rerun: number;
  /** Rows queued again as they were (a step waiting on an unknown outcome, a failed reactivation). */
  requeued: number;
  /** Rows that waited as delayed jobs and run now. */
  resumed: number;
}

/** `o1a2b3c4d5e6f-remove` → the offboarding and step it belongs to; undefined for any other batch id. */
export function stepBatchOf(batchId: string): { workflowId: string; step: StepBatchName } | undefined {
  const match = /^(o[0-9a-f]{12})-(deactivate|remove|reactivate)$/.exec(batchId);
  return match === null ? undefined : { workflowId: match[1]!, step: match[2] as StepBatchName };
}

const RETRIED: ReadonlySet<RowOutcome['outcome']> = new Set(['failed', 'unknown', 'cancelled']);

/** Where a failed leaver's step starts again, and the step batches whose outcomes that step has yet to write. */
const RERUN: Record<Exclude<StepBatchName, 'reactivate'>, { phase: LeaverPhase; reopens: readonly StepBatchName[] }> = {
  deactivate: { phase: 'scheduled', reopens: ['deactivate', 'remove', 'reactivate'] },
  remove: { phase: 'holding', reopens: ['remove', 'reactivate'] },
};

/**
 * `seatflow retry` of a step batch. A row of a step batch is a step's last act: run alone it would skip the step's
 * re-read and re-check, and the leaver's phase would stay `failed` whatever the row did. So a leaver whose step failed
 * goes back to the phase the step starts from (`scheduled` for the deactivation, `holding` for the removal: undo can
 * act again), its outcomes in this and the later step batches are forgotten, and the step is queued to run now: it
 * re-reads the user, re-checks the transfer target and runs the row, and the phase follows. A step waiting on an
 * `unknown` row, and a failed reactivation (its leaver is undone whatever it did), are rows queued again as they were.
 * A leaver undone or refused is never touched. Nothing to retry: nothing is changed, not even a finished time.
 */
export async function retryStepBatch(context: WorkflowContext, control: BatchControl, workflow: WorkflowRecord, step: StepBatchName): Promise<StepBatchRetry> {
  const batchId = workflow[`${step}Batch`];
  const rerun: LeaverState[] = [];
  const rows = new Set<number>();
  for (const leaver of await context.store.leavers(workflow.id)) {
    const outcome = await context.batches.getOutcome(batchId, leaver.row);
    if (outcome === undefined || !RETRIED.has(outcome.outcome)) continue;
    if (step !== 'reactivate' && leaver.phase === 'failed') rerun.push(leaver);
    else if (waitsOnRow(leaver.phase, step)) rows.add(leaver.row);
  }
  let rerunCount = 0;
  for (const leaver of rerun) if (await rerunStep(context, control, workflow, leaver, step as Exclude<StepBatchName, 'reactivate'>)) rerunCount += 1;
  const { requeued, resumed } = rows.size === 0 ? { requeued: 0, resumed: 0 } : await control.retry(batchId, rows);
  return { workflowId: workflow.id, step, rerun: rerunCount, requeued, resumed };
}

/** The leaver's step is waiting for this batch's row (or, for the reactivate batch, the leaver is undone). */
function waitsOnRow(phase: LeaverPhase, step: StepBatchName): boolean {
  return step === 'deactivate' ? phase === 'deactivating' : step === 'remove' ? phase === 'removing' : phase === 'undone';
}

async function rerunStep(context: WorkflowContext, control: BatchControl, workflow: WorkflowRecord, leaver: LeaverState, step: Exclude<StepBatchName, 'reactivate'>): Promise<boolean> {
  const { phase, reopens } = RERUN[step];
  const at = new Date(context.clock.now());
  const reopened = await context.store.update(workflow.id, leaver.row, (current) => {
    if (current.phase !== 'failed') return undefined;
    const { reason: _reason, transferUsed: _transferUsed, ...rest } = current;
    return { ...rest, phase, steps: [...current.steps, stepOf('retry', phase, at, `the ${step} step runs again (seatflow retry ${workflow[`${step}Batch`]}); it failed: ${current.reason ?? '?'}`)] };
  });
  if (reopened === undefined) return false;
  for (const batch of reopens) {
    const batchId = workflow[`${batch}Batch`];
    const outcome = await context.batches.getOutcome(batchId, leaver.row);
    if (outcome === undefined) continue;
    if (RETRIED.has(outcome.outcome)) await control.forgetRow(batchId, leaver.row, context.rowsQueue.name);
    else await context.batches.forgetOutcome(batchId, leaver.row, outcome.outcome);
  }
  await context.store.setState(workflow.id, 'open');
  if (reopened.userId !== undefined) await context.store.markLeaving(reopened.userId, leavingOwner(workflow.id, reopened.row));
  const data: StepJobData = { workflowId: workflow.id, row: reopened.row, step: step satisfies StepName, dueAt: context.clock.now() };
  // A step BullMQ gave up on is still held as failed under its id: without removing it, the add would do nothing.
  await context.stepQueue.remove(stepJobId(workflow.id, reopened.row, step));
  await context.stepQueue.add(step, data, stepJobOptions(data, context.clock.now()));
  return true;
}
