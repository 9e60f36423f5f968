import type { Action } from '../manifest/action.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import type { BatchPlan, PlannedRow } from './planned-row.js';

/** What a row is about, in a few words: the user's e-mail, a sheet's column, a webhook. */
export function describeSubject(row: Pick<PlannedRow, 'action' | 'target'>): string {
  const action: Action | undefined = row.action;
  if (action === undefined) return '';
  if ('user' in action) {
    const who = row.target.email ?? ('email' in action.user && action.user.email !== undefined ? action.user.email : `user ${'userId' in action.user ? action.user.userId : ''}`);
    if (action.action === 'remove' && action.transferTo !== undefined) {
      const heir = 'email' in action.transferTo && action.transferTo.email !== undefined ? action.transferTo.email : String('userId' in action.transferTo ? action.transferTo.userId : '');
      return `${who} → ${heir}`;
    }
    if ('alternateEmail' in action) return `${who} (${action.alternateEmail})`;
    return who;
  }
  if ('webhookId' in action) return `webhook ${action.webhookId}`;
  if (action.action === 'create-discussion') return `sheet ${action.sheetId}`;
  if (action.action === 'add-column') return `sheet ${action.sheetId} "${action.title}"`;
  return `sheet ${action.sheetId} ${action.columnId !== undefined ? `column ${action.columnId}` : `"${action.columnTitle}"`}`;
}

/** The plan as a table a person reads, a summary line and the API calls spent. */
export function formatPlan(plan: BatchPlan, options: { width?: number } = {}): string {
  const header = ['row', 'action', 'subject', 'verdict', 'reason'];
  const cells = plan.rows.map((row) => [
    String(row.row),
    row.actionName || '?',
    describeSubject(row),
    row.verdict === 'invalid' ? 'invalid (skipped)' : row.verdict,
    [row.reason, row.rule === undefined || row.verdict === 'invalid' ? undefined : `[${row.rule}]`].filter(Boolean).join(' '),
  ]);
  const widths = header.slice(0, 4).map((title, i) => Math.min(60, Math.max(title.length, ...cells.map((row) => row[i]!.length))));
  const maxReason = Math.max(20, (options.width ?? 160) - widths.reduce((sum, w) => sum + w + 2, 0));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i < 4 ? clip(cell, widths[i]!).padEnd(widths[i]!) : clip(cell, maxReason)))
      .join('  ')
      .trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w)).concat('------')), ...cells.map(line), '', summaryLine(plan)];
  return `${out.join('\n')}\n`;
}

export function summaryLine(plan: BatchPlan): string {
  const s = plan.summary;
  const parts = [`${s.change} change`, `${s['no-op']} no-op`, `${s.refused} refused`, `${s['not-found']} not-found`, `${s.conflict} conflict`];
  if (s.invalid > 0) parts.push(`${s.invalid} invalid (skipped)`);
  return `${s.total} rows: ${parts.join(', ')} · ${plan.apiCalls} API call${plan.apiCalls === 1 ? '' : 's'}`;
}

/** Every problem of a refused manifest, one per line, in file order. */
export function formatProblems(problems: readonly RowProblem[]): string {
  return problems
    .map((problem) => {
      const where = problem.row === 0 ? (problem.line > 0 ? `line ${problem.line}` : 'file') : `row ${problem.row} (line ${problem.line})`;
      return `  ${where}: ${problem.field === undefined ? '' : `${problem.field}: `}${problem.message}`;
    })
    .join('\n');
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
