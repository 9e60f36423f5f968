import type { BatchStore } from '../queue/batch-store.js';
import type { RowState } from '../queue/row-lifecycle.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { StepBatchRef } from './person-ends.js';

/** One row of one person in one step batch: what its state says happened, or is happening. */
export interface PersonRow {
  batchId: string;
  /** The manifest action of the batch's rows (deactivate, remove, add…). */
  action: string;
  /** Absent for rows of workflows submitted before rows had states. */
  state?: RowState;
  /** The due instant of the step the row belongs to (epoch ms, service clock), once scheduled or queued. */
  dueAt?: number;
  outcome?: RowOutcome;
}

/** The rows of these people in every step batch, by person row: two bulk reads per batch. */
export async function rowsOfPersons(batches: BatchStore, refs: readonly StepBatchRef[], rows: readonly number[]): Promise<Map<number, PersonRow[]>> {
  const byPerson = new Map<number, PersonRow[]>(rows.map((row) => [row, []]));
  for (const ref of refs) {
    const [statuses, outcomes] = await Promise.all([batches.rowLifecycle.statusesOf(ref.batchId, rows), batches.outcomesOf(ref.batchId, rows)]);
    for (const row of rows) {
      const status = statuses.get(row) ?? {};
      const outcome = outcomes.get(row);
      byPerson.get(row)?.push({ batchId: ref.batchId, action: ref.action, ...status, ...(outcome === undefined ? {} : { outcome }) });
    }
  }
  return byPerson;
}

/** A row a worker has, or is about to take: its change is being made now. */
export function inFlight(row: PersonRow): boolean {
  return row.outcome === undefined && (row.state === 'queued' || row.state === 'running');
}

/** A row whose change was made on the service (by this row, or found done after a lost answer). */
export function changed(row: PersonRow): boolean {
  return row.outcome?.outcome === 'succeeded';
}

/** A change made before the instant its step was due: shown as such, never hidden behind the plan. */
export function changedEarly(row: PersonRow): boolean {
  return changed(row) && row.dueAt !== undefined && row.outcome !== undefined && Date.parse(madeAt(row.outcome)) < row.dueAt;
}

/** When a row's change was made, on the service's clock where the outcome says (its due instant is on that clock). */
function madeAt(outcome: NonNullable<PersonRow['outcome']>): string {
  return outcome.startedOnServiceClock ?? outcome.finishedAt;
}

/**
 * What the rows say happened, for people: "deactivate succeeded at … (before its due instant …)", "remove is being
 * made now". Only rows that ran or run: planned, scheduled and rows that ended without running say nothing new.
 */
export function describeRows(rows: readonly PersonRow[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (inFlight(row)) lines.push(`${row.action} is being made now (its row is ${row.state})`);
    else if (changedEarly(row)) lines.push(`${row.action} was made at ${madeAt(row.outcome!)}, before its due instant ${new Date(row.dueAt!).toISOString()}`);
  }
  return lines;
}
