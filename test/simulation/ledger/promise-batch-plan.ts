import { changeOfRow, type ShownRow } from './change-of-row.js';
import type { Ledger } from './ledger.js';
import type { PromiseState } from './promise.js';

export interface ShownBatchPlan {
  batchId: string;
  rows: readonly ShownRow[];
  /** Service time the plan was asked for: nothing of it may happen before. */
  at: number;
  eventSeq: number;
  state: PromiseState;
  /** For people: what made the batch (`manifest m-3.jsonl`, `revert of b…`). */
  label: string;
}

/**
 * Every row a batch plan shows as a change becomes a promise: its change, not before the plan, reported by the batch's
 * row. Rows shown as no-op, refused, not found, conflict or invalid promise nothing (anything they change is
 * unpromised). Returns the keys made, and the rows whose change the oracle cannot name (a trace line says so).
 */
export function promiseBatchPlan(ledger: Ledger, plan: ShownBatchPlan): { keys: string[]; unnamed: number[] } {
  const keys: string[] = [];
  const unnamed: number[] = [];
  for (const row of plan.rows) {
    if (row.verdict !== 'change') continue;
    const change = changeOfRow(row);
    if (change === undefined) {
      unnamed.push(row.row);
      continue;
    }
    const key = `${plan.batchId}:row ${row.row}`;
    ledger.promise({
      key,
      eventSeq: plan.eventSeq,
      label: `${plan.label}: row ${row.row} ${row.actionName}`,
      changes: [change],
      notBefore: plan.at,
      state: plan.state,
      since: plan.at,
      outcome: { batchIds: [plan.batchId], row: row.row },
    });
    keys.push(key);
  }
  return { keys, unnamed };
}
