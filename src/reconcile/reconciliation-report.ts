import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { neutraliseCell } from '../queue/report-writer.js';
import type { ReconciliationPlan } from './plan-reconciliation.js';

export const RECONCILIATION_COLUMNS = [
  'run', 'policySha256', 'row', 'email', 'userId', 'rule', 'seatBefore', 'seatAfter', 'action', 'verdict', 'refusal', 'reason', 'batchId',
] as const;

/** What happened to a run after its plan: submitted as a batch, held by a limit, or only planned. */
export interface RunDisposition {
  /** The run's identity, e.g. `weekly-seats@2026-11-23T05:00:00.000Z`. */
  runId: string;
  applied: boolean;
  batchId?: string;
  /** The batch of this run existed already (the same tick submitted twice). */
  batchExisted?: boolean;
  /** Why nothing was submitted although --apply was asked (a limit, the guardrails). */
  heldBecause?: string[];
  /** The run waits for a second person's approval as this change request (docs/governance.md). */
  awaitingApproval?: string;
  /** --apply was asked and no seat needed to change: no batch was made. */
  nothingToChange?: boolean;
}

/** One line per user the policy would change, with the rule that matched and the seat before and after. */
export function reconciliationRows(run: ReconciliationPlan, disposition: RunDisposition): Record<(typeof RECONCILIATION_COLUMNS)[number], string | number | undefined>[] {
  const byRow = new Map(Array.from(run.plan.rows, (row) => [row.row, row]));
  return run.changes.map((decision, index) => {
    const planned = byRow.get(index + 1);
    return {
      run: disposition.runId,
      policySha256: run.policy.sha256,
      row: index + 1,
      email: decision.email,
      userId: decision.userId,
      rule: decision.rule,
      seatBefore: decision.seatBefore,
      seatAfter: decision.seatAfter,
      action: decision.action,
      verdict: planned?.verdict,
      refusal: planned?.rule,
      reason: planned?.reason,
      batchId: disposition.batchId,
    };
  });
}

/**
 * Writes the run's record for the true-up: `<stem>.csv` (one line per change, as above; cells that could run as
 * formulas neutralised) and `<stem>.json` (the run: policy file and hash, plan, counts, limits, batch). Returns both paths.
 */
export async function writeReconciliationReport(run: ReconciliationPlan, disposition: RunDisposition, stem: string): Promise<{ csv: string; json: string }> {
  await mkdir(path.dirname(path.resolve(stem)), { recursive: true });
  const rows = reconciliationRows(run, disposition);
  const lines = [[...RECONCILIATION_COLUMNS], ...rows.map((row) => RECONCILIATION_COLUMNS.map((column) => cell(row[column])))];
  const csv = `${stem}.csv`;
  const json = `${stem}.json`;
  await writeFile(csv, stringify(lines));
  await writeFile(json, `${JSON.stringify(runSummary(run, disposition), null, 2)}\n`);
  return { csv, json };
}

/** The run in one object: what `schedule list` and the JSON report show. */
export function runSummary(run: ReconciliationPlan, disposition: RunDisposition) {
  const excluded = run.decisions.filter((decision) => decision.excluded !== undefined).length;
  return {
    ...disposition,
    policy: { path: run.policy.path, sha256: run.policy.sha256 },
    planId: run.planId,
    ranAt: run.ranAt.toISOString(),
    usersRead: run.usersRead,
    seats: run.seats,
    excluded,
    apiCalls: run.apiCalls,
    plan: run.plan.summary,
    limits: run.limits.reasons,
    guardrails: run.guardrails.reasons,
  };
}

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? String(value) : neutraliseCell(value);
}
