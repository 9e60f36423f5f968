import type { PlannedRow } from '../plan/planned-row.js';
import { rowJobOptions } from '../queue/row-job.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { EngineContext } from './workflow-context.js';

/** Row outcomes after which a step goes on as if it had made the change (it did, or it was already so). */
export const DONE_OUTCOMES: ReadonlySet<RowOutcome['outcome']> = new Set(['succeeded', 'unchanged']);

/**
 * The outcome of a step's row, once its row has run: the row is saved (when `row` is given and the batch has none)
 * and queued (a row is queued once, whoever queues it again: its job id is `<batch>-<row>`), and the step waits for
 * the outcome as delayed work. The row runs with the existing row processor and job type: budget, retries, and a
 * confirm before any repeat.
 */
export async function rowOutcomeOf(context: EngineContext, batchId: string, row: number, waitForRow: () => Promise<never>, planned?: PlannedRow): Promise<RowOutcome> {
  const outcome = await context.batches.getOutcome(batchId, row);
  if (outcome !== undefined) return outcome;
  let saved = await context.batches.getRow(batchId, row);
  if (saved === undefined && planned !== undefined) {
    await context.batches.saveRows(batchId, [planned]);
    saved = planned;
  }
  if (saved?.action === undefined) throw new Error(`step batch ${batchId} has no row ${row} to run`);
  await context.rowsQueue.add(saved.action.action, { batchId, row }, rowJobOptions(batchId, row));
  return waitForRow();
}
