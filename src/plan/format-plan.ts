import { userRefLabel, type Action } from '../manifest/action.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { printable } from '../core/printable.js';
import type { BatchPlan, PlannedRow } from './planned-row.js';
import { plural } from '../core/plural.js';
import { callsToApply, callsToApplyLine, type CallRate } from './calls-at-rate.js';
import { batchPlanCalls } from './batch-plan-calls.js';

/**
 * What a row is about, in a few words: the user's e-mail, a sheet's column, a webhook. An invalid row names the
 * e-mail it was given, as written, when it gave one.
 */
export function describeSubject(row: Pick<PlannedRow, 'action' | 'target' | 'rawEmail'>): string {
  const action: Action | undefined = row.action;
  if (action === undefined) return row.rawEmail ?? '';
  if ('user' in action) {
    const who = row.target.email ?? userRefLabel(action.user, 'user ');
    if (action.action === 'remove' && action.transferTo !== undefined) return `${who} → ${userRefLabel(action.transferTo)}`;
    if ('alternateEmail' in action) return `${who} (${action.alternateEmail})`;
    return who;
  }
  if ('webhookId' in action) return `webhook ${action.webhookId}`;
  if (action.action === 'create-discussion') return `sheet ${action.sheetId}`;
  if (action.action === 'add-column') return `sheet ${action.sheetId} column "${action.title}"`;
  return `sheet ${action.sheetId} column ${action.columnId !== undefined ? action.columnId : `"${action.columnTitle}"`}`;
}

export interface FormatPlanOptions {
  /**
   * The terminal's width: the reason is cut to fit it (its rule tag never is). Undefined when stdout is not a
   * terminal, and then nothing is cut, so a piped or redirected plan keeps every word.
   */
  width?: number | undefined;
  /** The configured rate: with it, the calls applying the plan makes (one per row to change) and how long they take. */
  rate?: CallRate | undefined;
}

/**
 * The plan as a table a person reads, a summary line and the API calls spent. Every cell goes through `printable`:
 * what a manifest or the service wrote is shown, never acted on by the terminal.
 */
export function formatPlan(plan: BatchPlan, options: FormatPlanOptions = {}): string {
  let text = '';
  for (const line of planLines(plan, options)) text += `${line}\n`;
  return text;
}

const HEADER = ['row', 'action', 'subject', 'verdict'];

/** A row's cells, as shown: row, action, subject, verdict. */
function cellsOf(row: PlannedRow): string[] {
  return [String(row.row), printable(row.actionName || '?'), printable(describeSubject(row)), row.verdict === 'invalid' ? 'invalid (skipped)' : row.verdict];
}

/**
 * formatPlan line by line (without line breaks), for a printer that writes as it goes. Two passes over the rows, the
 * first for the column widths: nothing per row is kept, so a million-row plan prints in the memory of one line.
 */
export function* planLines(plan: BatchPlan, options: FormatPlanOptions = {}): Generator<string> {
  const width = options.width;
  const widths = HEADER.map((title) => title.length);
  for (const row of plan.rows) {
    const cells = cellsOf(row);
    for (let i = 0; i < widths.length; i += 1) widths[i] = Math.max(widths[i]!, cells[i]!.length);
  }
  if (width !== undefined) for (let i = 0; i < widths.length; i += 1) widths[i] = Math.min(60, widths[i]!);
  const maxReason = width === undefined ? Number.POSITIVE_INFINITY : Math.max(20, width - widths.reduce((sum, w) => sum + w + 2, 0));
  // The rule tag leads the reason, so that cutting a long reason to the terminal's width never drops it.
  // A refusal the service would answer with a documented code shows it too: the code the report would carry.
  const reasonCell = (row: PlannedRow): string => {
    const tag = row.rule === undefined || row.verdict === 'invalid' ? '' : `[${row.rule}${row.errorCode === undefined ? '' : ` ${row.errorCode}`}]`;
    const text = printable(row.reason ?? '');
    if (tag === '') return clip(text, maxReason);
    return text === '' ? tag : `${tag} ${clip(text, Math.max(10, maxReason - tag.length - 1))}`;
  };
  const line = (cells: string[], reason: string) => [...cells.map((cell, i) => clip(cell, widths[i]!).padEnd(widths[i]!)), reason].join('  ').trimEnd();
  yield line(HEADER, 'reason');
  yield line(widths.map((w) => '-'.repeat(w)), '------');
  for (const row of plan.rows) yield line(cellsOf(row), reasonCell(row));
  yield '';
  yield summaryLine(plan);
  if (options.rate !== undefined) yield callsToApplyLine(callsToApply(batchPlanCalls(plan), options.rate));
  for (const note of plan.notes ?? []) yield `Note: ${printable(note)}`;
}

export function summaryLine(plan: BatchPlan): string {
  const s = plan.summary;
  const parts = [`${s.change} change`, `${s['no-op']} no-op`, `${s.refused} refused`, `${s['not-found']} not-found`, `${s.conflict} conflict`];
  if (s.invalid > 0) parts.push(`${s.invalid} invalid (skipped)`);
  return `${plural(s.total, 'row')}: ${parts.join(', ')} · ${plural(plan.apiCalls, 'API call')}`;
}

/** Every problem of a refused manifest, one per line, in file order. */
export function formatProblems(problems: readonly RowProblem[]): string {
  return problems
    .map((problem) => {
      const where = problem.row === 0 ? (problem.line > 0 ? `line ${problem.line}` : 'file') : `row ${problem.row} (line ${problem.line})`;
      return `  ${where}: ${problem.field === undefined ? '' : `${printable(problem.field)}: `}${printable(problem.message)}`;
    })
    .join('\n');
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
