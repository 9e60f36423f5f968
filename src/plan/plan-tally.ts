import { DESTRUCTIVE_ACTIONS, type ActionName } from '../manifest/action.js';
import { VERDICTS, type BatchPlanSummary, type PlannedRow } from './planned-row.js';

/**
 * What a plan's counts need from its rows, kept as the rows go by: rows per verdict (the summary) and change rows
 * per action (the notes, whether the share guardrail needs the organization's size). A million rows are then counted
 * once, as they are planned, instead of read back for each count.
 */
export class PlanTally {
  private readonly verdicts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Omit<BatchPlanSummary, 'total'>;
  private total = 0;
  /** Change rows per action name. */
  readonly changes = new Map<string, number>();

  add(row: Pick<PlannedRow, 'verdict' | 'actionName'>): void {
    this.total += 1;
    this.verdicts[row.verdict] += 1;
    if (row.verdict === 'change') this.changes.set(row.actionName, (this.changes.get(row.actionName) ?? 0) + 1);
  }

  summary(): BatchPlanSummary {
    return { total: this.total, ...this.verdicts };
  }

  /** Rows that will change something by taking it away (deactivate, remove, downgrade, delete-*…). */
  destructiveChanges(): number {
    let count = 0;
    for (const [action, changes] of this.changes) if (DESTRUCTIVE_ACTIONS.has(action as ActionName)) count += changes;
    return count;
  }
}
