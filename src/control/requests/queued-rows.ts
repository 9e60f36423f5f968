import type { PlannedRow } from '../../plan/planned-row.js';
import type { BatchRecord, BatchStore } from '../../queue/batch-store.js';

/** A known batch's rows are read back for an answer up to this many; a bigger batch's are in its report. */
export const QUEUED_ROWS_SHOWN = 1000;

/**
 * The rows a known batch was queued to change, each as it was planned when queued (its saved row: what runs, whatever a
 * pre-flight now would say). What a submission that finds its batch answers with, so a caller whose first try was cut
 * off (a 503 after the batch was kept, a lost answer) learns what that try queued. Undefined for a batch with more
 * rows to run than QUEUED_ROWS_SHOWN.
 */
export async function queuedRowsOf(store: Pick<BatchStore, 'rowNumbers' | 'getRow'>, batch: Pick<BatchRecord, 'id' | 'queued'>): Promise<PlannedRow[] | undefined> {
  if (batch.queued > QUEUED_ROWS_SHOWN) return undefined;
  const numbers = await store.rowNumbers(batch.id);
  if (numbers.length > QUEUED_ROWS_SHOWN) return undefined;
  const rows = await Promise.all(numbers.map((row) => store.getRow(batch.id, row)));
  return rows.filter((row): row is PlannedRow => row !== undefined);
}
