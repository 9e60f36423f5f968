import type { PlannedRow } from '../plan/planned-row.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { RowWait } from './lifecycle.js';
import type { EngineContext } from './workflow-context.js';

/** Row outcomes after which a step goes on as if it had made the change (it did, or it was already so). */
export const DONE_OUTCOMES: ReadonlySet<RowOutcome['outcome']> = new Set(['succeeded', 'unchanged']);

/** A row of a step batch, as the step that runs it names it. */
export interface StepRow {
  batchId: string;
  row: number;
  /** The step's due instant (its job's `dueAt`): the row is queued with it, and no worker runs it sooner. */
  dueAt: number;
  /** The row to save when the batch has none for it yet (a row the step decides on when it runs). */
  planned?: PlannedRow;
}

/**
 * The outcome of a step's row, once its row has run: the row is queued (row-lifecycle.ts: its state becomes queued
 * with the step's due instant, then its job is added; a row queued, running or ended already is left so), naming the
 * step's job as its waiter, and the step waits for the outcome as delayed work, which the row's end wakes. The row runs
 * with the existing row processor and job type: budget, retries, and a confirm before any repeat.
 */
export async function rowOutcomeOf(context: EngineContext, stepRow: StepRow, wait: RowWait): Promise<RowOutcome> {
  const { batchId, row } = stepRow;
  const outcome = await context.batches.getOutcome(batchId, row);
  if (outcome !== undefined) return outcome;
  const [result] = await context.batches.rowLifecycle.queue(context.rowsQueue, batchId, [{ row, ...(stepRow.planned === undefined ? {} : { planned: stepRow.planned }) }], { dueAt: stepRow.dueAt, waiter: wait.waiter });
  if (result === 'no-row') throw new Error(`step batch ${batchId} has no row ${row} to run`);
  if (result === 'ended') {
    const ended = await context.batches.getOutcome(batchId, row);
    if (ended !== undefined) return ended;
  }
  return wait.waitForRow(() => context.batches.hasOutcome(batchId, row));
}
