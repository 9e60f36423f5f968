import { createHash } from 'node:crypto';
import { DESTRUCTIVE_ACTIONS, type ActionName } from '../../manifest/action.js';
import { describeSubject } from '../../plan/format-plan.js';
import type { BatchPlan, PlannedRow } from '../../plan/planned-row.js';
import { canonicalJson } from '../audit/audit-entry.js';

/**
 * A plan as approvers see it and as its hash covers it: one line per row, keyed by the row, holding the decision (what
 * will be done to whom, and the verdict) but not the words of a reason or the calls the pre-flight spent. Two plans
 * with one hash do the same thing to the same users: what "the approved plan" means.
 */
export interface PlanLine {
  /** Stable across re-plans of the same input: `row 12`. */
  key: string;
  /** For people: `downgrade riley.owens@acme.example: change`. */
  text: string;
  /** What the hash covers (canonical JSON). */
  decision: Record<string, unknown>;
}

export interface PlanFingerprint {
  lines: PlanLine[];
  /** Counts shown with the request (change, no-op, refused, …). */
  summary: Record<string, number>;
  /** Rows that will change something. */
  changes: number;
  /** Of those, rows that take something away (DESTRUCTIVE_ACTIONS, or every leaver of an offboarding). */
  destructive: number;
  /** Actions of the rows that will change something. */
  actions: ActionName[];
}

/** The hash of a plan: SHA-256 over its kind, target and lines in key order. */
export function planHashOf(kind: string, target: string, lines: readonly PlanLine[]): string {
  const sorted = [...lines].sort((a, b) => compareKeys(a.key, b.key)).map((line) => [line.key, line.decision]);
  return createHash('sha256').update(canonicalJson({ kind, target, lines: sorted })).digest('hex');
}

/** The lines of a manifest's (or a policy's, or a revert's) batch plan. */
export function fingerprintOfBatchPlan(plan: Pick<BatchPlan, 'rows' | 'summary'>): PlanFingerprint {
  const lines = plan.rows.map((row) => ({ key: `row ${row.row}`, text: `${row.actionName || '?'} ${describeSubject(row)}: ${row.verdict}${row.rule === undefined ? '' : ` [${row.rule}]`}`, decision: decisionOf(row) }));
  const changing = plan.rows.filter((row) => row.verdict === 'change');
  const { total: _total, ...summary } = plan.summary;
  return {
    lines,
    summary: { ...summary },
    changes: changing.length,
    destructive: changing.filter((row) => DESTRUCTIVE_ACTIONS.has(row.actionName as ActionName)).length,
    actions: [...new Set(changing.map((row) => row.actionName as ActionName))],
  };
}

function decisionOf(row: PlannedRow): Record<string, unknown> {
  const { upload, ...target } = row.target;
  return {
    action: row.action ?? row.actionName,
    verdict: row.verdict,
    ...(row.rule === undefined ? {} : { rule: row.rule }),
    ...(row.errorCode === undefined ? {} : { errorCode: row.errorCode }),
    target,
    // A file row's decision is the exact bytes it uploads.
    ...(upload === undefined ? {} : { upload: { file: upload.relative, sha256: upload.sha256 } }),
  };
}

export interface PlanDiff {
  added: PlanLine[];
  removed: PlanLine[];
  changed: { before: PlanLine; after: PlanLine }[];
}

/** What changed between the plan that was approved (or shown) and a re-plan, row by row. */
export function diffPlans(before: readonly PlanLine[], after: readonly PlanLine[]): PlanDiff {
  const old = new Map(before.map((line) => [line.key, line]));
  const now = new Map(after.map((line) => [line.key, line]));
  const diff: PlanDiff = { added: [], removed: [], changed: [] };
  for (const line of after) {
    const was = old.get(line.key);
    if (was === undefined) diff.added.push(line);
    else if (canonicalJson(was.decision) !== canonicalJson(line.decision)) diff.changed.push({ before: was, after: line });
  }
  for (const line of before) if (!now.has(line.key)) diff.removed.push(line);
  return diff;
}

/** The diff as lines a person reads (at most `limit` rows, then how many more). */
export function formatDiff(diff: PlanDiff, limit = 20): string[] {
  const lines = [
    ...diff.changed.map(({ before, after }) => `${after.key}: was "${before.text}", now "${after.text}"`),
    ...diff.added.map((line) => `${line.key}: new: "${line.text}"`),
    ...diff.removed.map((line) => `${line.key}: gone: "${line.text}"`),
  ];
  return lines.length <= limit ? lines : [...lines.slice(0, limit), `… and ${lines.length - limit} more`];
}

/** `row 2` before `row 10`. */
function compareKeys(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
