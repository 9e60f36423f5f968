import type { Action } from './action.js';
import { createClashChecker, type ClashCheckerOptions } from './clash-checker.js';
import { ManifestFileError } from './manifest-file-error.js';
import type { ManifestFormat } from './manifest-format.js';
import type { ManifestRow, RowProblem } from './manifest-row.js';
import { readManifest, type ReadManifestOptions } from './read-manifest.js';
import { RowStore, type RowList } from './row-store.js';
import { plural } from '../core/plural.js';

export interface LoadManifestOptions extends ReadManifestOptions {
  /** guardrails.maxRows: a file with more data rows is refused whole, without reading further. */
  maxRows?: number;
  /** The error past `maxRows`, when a caller's limit is not guardrails.maxRows (the control API's plan size). */
  tooManyRows?: (maxRows: number) => Error;
  /** guardrails.protectedAccounts: e-mails or ids no row may name. */
  protectedAccounts?: readonly string[];
  /** Keep the valid rows in memory (the plan needs them); false to only validate a huge file. Default true. */
  keepRows?: boolean;
  clashes?: ClashCheckerOptions;
  /** Told the number of data rows read so far, every PROGRESS_EVERY rows (a progress line for a large file). */
  onRowsRead?: (rows: number) => void;
}

/** How often onRowsRead is told: often enough for a line a second, rarely enough to cost nothing. */
export const PROGRESS_EVERY = 10_000;

export interface InvalidRow {
  row: number;
  line: number;
  actionName: string;
  problems: RowProblem[];
  /** The e-mail the row gave, as written (maybe the very value that is wrong), so reports still name whom it was about. */
  rawEmail?: string;
}

export interface LoadedManifest {
  path: string;
  format: ManifestFormat;
  sha256: string;
  /** Valid rows in file order (empty when keepRows is false): compact, see RowStore. */
  rows: RowList<ManifestRow>;
  /** Rows refused by their own fields or by a whole-file check, in file order. */
  invalid: InvalidRow[];
  /** Data rows read, valid or not. */
  rowCount: number;
  validCount: number;
  warnings: string[];
}

/**
 * Reads and validates a whole manifest: every row (see readManifest), then the whole-file checks (duplicates,
 * contradictions, transfer targets the file removes, protected accounts, the row limit). Never throws for a bad
 * row; throws ManifestFileError when the file as a whole cannot be read.
 */
export async function loadManifest(options: LoadManifestOptions): Promise<LoadedManifest> {
  const reader = readManifest(options);
  const keepRows = options.keepRows ?? true;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const protectedAccounts = new Set((options.protectedAccounts ?? []).map((entry) => entry.trim().toLowerCase()));
  const checker = createClashChecker(options.clashes);
  let rows = new RowStore<ManifestRow>();
  const invalid = new Map<number, InvalidRow>();
  let rowCount = 0;

  const refuse = (problem: RowProblem, actionName: string, rawEmail: string | undefined) => {
    const existing = invalid.get(problem.row);
    if (existing !== undefined) existing.problems.push(problem);
    else invalid.set(problem.row, { row: problem.row, line: problem.line, actionName, problems: [problem], ...(rawEmail === undefined ? {} : { rawEmail }) });
  };

  for await (const entry of reader) {
    rowCount += 1;
    if (options.onRowsRead !== undefined && rowCount % PROGRESS_EVERY === 0) options.onRowsRead(rowCount);
    if (rowCount > maxRows) {
      if (options.tooManyRows !== undefined) throw options.tooManyRows(maxRows);
      throw new ManifestFileError(`the file has more than ${plural(maxRows, 'row')} (guardrails.maxRows)`, 0, 'Split it, or raise guardrails.maxRows.');
    }
    if (entry.kind === 'invalid') {
      for (const problem of entry.problems) refuse(problem, entry.actionName, entry.rawEmail);
      continue;
    }
    const { row, line, action } = entry.row;
    const problems = [...protectedProblems(action, protectedAccounts, row, line), ...checker.add(row, line, action)];
    for (const problem of problems) refuse(problem, action.action, emailOf(action));
    // Kept as compact JSON: a million rows as objects were the largest part of a plan's memory.
    if (keepRows && problems.length === 0) rows.append(entry.row);
  }
  if (rowCount === 0) throw new ManifestFileError('the file has no data rows', 0, 'Add one row per action under the header.');
  const late = checker.finish();
  if (late.length > 0) rows = refuseLate(late, rows, refuse);

  const invalidRows = [...invalid.values()].sort((a, b) => a.row - b.row);
  return {
    path: reader.path,
    format: reader.format(),
    sha256: reader.sha256(),
    rows,
    invalid: invalidRows,
    rowCount,
    validCount: rowCount - invalidRows.length,
    warnings: reader.notes.warnings,
  };
}

/**
 * Refuses the rows the whole-file checks found only at the end (transfer targets the file removes), with the action and
 * e-mail of each, and keeps the others: the store is read once and written again without them.
 */
function refuseLate(late: readonly RowProblem[], rows: RowStore<ManifestRow>, refuse: (problem: RowProblem, actionName: string, rawEmail: string | undefined) => void): RowStore<ManifestRow> {
  const byRow = new Map<number, RowProblem[]>();
  for (const problem of late) (byRow.get(problem.row) ?? byRow.set(problem.row, []).get(problem.row)!).push(problem);
  const kept = new RowStore<ManifestRow>();
  for (const row of rows) {
    const problems = byRow.get(row.row);
    if (problems === undefined) kept.append(row);
    else for (const problem of problems) refuse(problem, row.action.action, emailOf(row.action));
    byRow.delete(row.row);
  }
  // A row refused before (not kept) is only told the problem.
  for (const problems of byRow.values()) for (const problem of problems) refuse(problem, '', undefined);
  return kept;
}

function emailOf(action: Action): string | undefined {
  return 'user' in action ? action.user.email : undefined;
}

function protectedProblems(action: Action, accounts: ReadonlySet<string>, row: number, line: number): RowProblem[] {
  if (accounts.size === 0 || !('user' in action)) return [];
  const names = [('email' in action.user ? action.user.email : undefined), ('userId' in action.user ? String(action.user.userId) : undefined)];
  const hit = names.find((name) => name !== undefined && accounts.has(name));
  if (hit === undefined) return [];
  return [{ row, line, field: 'email', message: `${hit} is a protected account (guardrails.protectedAccounts): no manifest may touch it` }];
}
