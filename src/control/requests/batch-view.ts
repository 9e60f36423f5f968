import type { BatchRecord } from '../../queue/batch-store.js';
import { rowsWithOutcome } from '../../queue/row-outcome.js';

/** A batch as the API shows it: the stored record, its outcome counts, and how far it got. */
export interface BatchView extends BatchRecord {
  progress: { done: number; total: number; ratio: number };
  links: { self: string; outcomes: string };
}

export function batchView(batch: BatchRecord): BatchView {
  const done = rowsWithOutcome(batch.counts);
  return {
    ...batch,
    progress: { done, total: batch.total, ratio: batch.total === 0 ? 1 : Math.min(1, done / batch.total) },
    links: { self: `/v1/batches/${batch.id}`, outcomes: `/v1/batches/${batch.id}/outcomes` },
  };
}
