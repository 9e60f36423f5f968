import { createHash } from 'node:crypto';
import { DESTRUCTIVE_ACTIONS, type ActionName } from '../../manifest/action.js';
import { describeSubject } from '../../plan/format-plan.js';
import type { BatchPlan, PlannedRow } from '../../plan/planned-row.js';
import { batchPlanCalls } from '../../plan/batch-plan-calls.js';
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
  /**
   * What the requester's plan showed beside the decision (the subject, the reason in words, the line of the file), so
   * that an approver sees the plan in the same words; not covered by the hash.
   */
  view?: Record<string, string | number>;
}

export interface PlanFingerprint {
  /**
   * One line per row, in row order; re-iterable. A batch plan's lines are made from its rows as they are read, so a
   * plan of a million rows is hashed without holding a million lines (they are held only when a request is stored).
   */
  lines: Iterable<PlanLine>;
  /** Counts shown with the request (change, no-op, refused, …). */
  summary: Record<string, number>;
  /** Rows that will change something. */
  changes: number;
  /** Of those, rows that take something away (DESTRUCTIVE_ACTIONS, or every leaver of an offboarding). */
  destructive: number;
  /** Actions of the rows that will change something. */
  actions: ActionName[];
  /** The calls applying it makes (as its plan's "Calls to apply" line counts them): shown to approvers with the rate. */
  calls: number;
}

/**
 * The hash of a plan: SHA-256 over its kind and target, then each line's key and decision in key order (canonical
 * JSON, one per text line). Lines that come in key order (a batch plan's, row by row) are hashed as they come; others
 * are sorted first, which gives the same bytes and so the same hash.
 */
export function planHashOf(kind: string, target: string, lines: Iterable<PlanLine>): string {
  const inOrder = hashLines(kind, target, lines);
  return inOrder ?? (hashLines(kind, target, [...lines].sort((a, b) => compareKeys(a.key, b.key))) as string);
}

/** The hash of lines already in key order, or undefined as soon as one is out of order. */
function hashLines(kind: string, target: string, lines: Iterable<PlanLine>): string | undefined {
  const hash = createHash('sha256').update(`${canonicalJson({ kind, target })}\n`);
  let previous: string | undefined;
  for (const line of lines) {
    if (previous !== undefined && compareKeys(previous, line.key) > 0) return undefined;
    previous = line.key;
    hash.update(`${canonicalJson([line.key, line.decision])}\n`);
  }
  return hash.digest('hex');
}

/** The lines of a manifest's (or a policy's, or a revert's) batch plan: counted in one pass, its lines made on demand. */
export function fingerprintOfBatchPlan(plan: Pick<BatchPlan, 'rows' | 'summary'>): PlanFingerprint {
  let changes = 0;
  let destructive = 0;
  const actions = new Set<ActionName>();
  for (const row of plan.rows) {
    if (row.verdict !== 'change') continue;
    changes += 1;
    if (DESTRUCTIVE_ACTIONS.has(row.actionName as ActionName)) destructive += 1;
    actions.add(row.actionName as ActionName);
  }
  const { total: _total, ...summary } = plan.summary;
  const rows = plan.rows;
  return {
    lines: {
      *[Symbol.iterator]() {
        for (const row of rows) yield lineOfRow(row);
      },
    },
    summary: { ...summary },
    changes,
    destructive,
    actions: [...actions],
    calls: batchPlanCalls(plan),
  };
}

function lineOfRow(row: PlannedRow): PlanLine {
  const subject = describeSubject(row);
  return {
    key: `row ${row.row}`,
    text: `${row.actionName || '?'} ${subject}: ${row.verdict}${row.rule === undefined ? '' : ` [${row.rule}]`}`,
    decision: decisionOf(row),
    view: { line: row.line, action: row.actionName, subject, ...(row.reason === undefined ? {} : { reason: row.reason }) },
  };
}

function decisionOf(row: PlannedRow): Record<string, unknown> {
  // What the plan read for revert (readAtPlan) is a reading with its time, not what will be done: a re-plan of the same
  // live state reads it again at another time.
  const { upload, readAtPlan: _reading, ...target } = row.target;
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
