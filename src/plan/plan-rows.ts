import { RowStore, type RowList } from '../manifest/row-store.js';
import { PlanTally } from './plan-tally.js';
import type { PlannedRow } from './planned-row.js';

/**
 * A plan's rows as the pre-flight keeps them: compact (RowStore), and counted as they are appended, so that the
 * summary, the guardrails and a submission know their counts without reading a million rows back.
 */
export class PlanRows extends RowStore<PlannedRow> {
  readonly tally = new PlanTally();

  override append(row: PlannedRow): void {
    super.append(row);
    this.tally.add(row);
  }
}

/** The counts of a plan's rows: kept with PlanRows, counted here for rows given another way (an array). */
export function countsOf(rows: RowList<PlannedRow>): PlanTally {
  if (rows instanceof PlanRows) return rows.tally;
  const tally = new PlanTally();
  for (const row of rows) tally.add(row);
  return tally;
}
