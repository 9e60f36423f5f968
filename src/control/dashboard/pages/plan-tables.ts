import { formatHold } from '../../../workflow/hold-duration.js';
import { stateBadge } from '../badges.js';
import { cardTable } from '../card-table.js';
import { timeOf } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** One row of a batch plan as the requester and the approver both see it. */
export interface PlanRowView {
  row: number;
  line?: number | undefined;
  action: string;
  subject: string;
  verdict: string;
  reason?: string | undefined;
  rule?: string | undefined;
  problems?: ReadonlyArray<{ field?: string | undefined; message: string }> | undefined;
}

/** The rows of a batch plan: one table for the plan page and the approval page, so both say the same in the same words. */
export function planRowsTable(rows: readonly PlanRowView[], caption: string): SafeHtml {
  return cardTable({
    caption,
    className: 'rows',
    items: rows,
    columns: [
      { label: 'Row', cell: (row) => html`${row.row}${row.line === undefined ? '' : html`<div class="muted small">line ${row.line}</div>`}` },
      { label: 'Action', cell: (row) => row.action },
      { label: 'User or subject', names: true, cell: (row) => row.subject },
      { label: 'Verdict', cell: (row) => stateBadge(row.verdict) },
      {
        label: 'What and why',
        className: 'message',
        cell: (row) =>
          html`${row.reason ?? ''}${row.rule === undefined ? '' : html`<div class="muted small">${row.rule}</div>`}${row.problems === undefined ? '' : html`<ul>${row.problems.map((p) => html`<li>${p.field === undefined ? '' : `${p.field}: `}${p.message}</li>`)}</ul>`}`,
      },
    ],
  });
}

/** One leaver of an offboarding plan as the requester and the approver both see it. */
export interface LeaverPlanView {
  row: number;
  line?: number | undefined;
  email: string;
  verdict: string;
  /** The leave date (epoch ms) of a leaver deactivated on it. */
  leaveAt?: number | undefined;
  transferTo?: string | undefined;
  reason?: string | undefined;
  rule?: string | undefined;
  notes: readonly string[];
}

/** The deactivation, in words, at its instant in the plan's zone. */
function firstStep(leaver: LeaverPlanView, zone: string | undefined): SafeHtml {
  switch (leaver.verdict) {
    case 'deactivate-now':
      return html`deactivated as soon as it starts`;
    case 'deactivate-on-date':
      return leaver.leaveAt === undefined ? html`on the leave date` : html`deactivated ${timeOf(new Date(leaver.leaveAt).toISOString(), zone)}`;
    case 'already-deactivated':
      return html`already deactivated (no call)`;
    default:
      return html`<strong>nothing</strong>`;
  }
}

/** The removal at the end of the hold: a date for a dated leaver, else the hold counted from the deactivation. */
function removal(leaver: LeaverPlanView, holdMs: number, zone: string | undefined): SafeHtml | string {
  if (leaver.verdict === 'refused') return '—';
  if (leaver.verdict === 'deactivate-on-date' && leaver.leaveAt !== undefined) return html`removed ${timeOf(new Date(leaver.leaveAt + holdMs).toISOString(), zone)}`;
  return `removed ${formatHold(holdMs)} after the deactivation`;
}

/** The leavers of an offboarding plan: dates in the zone the plan was made in (UTC on hover), its hold, the transfers. */
export function leaversPlanTable(leavers: readonly LeaverPlanView[], options: { holdMs: number; zone: string | undefined; caption: string }): SafeHtml {
  const { holdMs, zone } = options;
  return cardTable({
    caption: options.caption,
    className: 'leavers',
    items: leavers,
    columns: [
      { label: 'Leaver', names: true, cell: (leaver) => html`${leaver.email}<div class="muted small">row ${leaver.row}${leaver.line === undefined ? '' : ` · line ${leaver.line}`}</div>` },
      { label: 'Plan', cell: (leaver) => html`${stateBadge(leaver.verdict)}<div class="small">${firstStep(leaver, zone)}</div>` },
      { label: 'End of the hold', cell: (leaver) => removal(leaver, holdMs, zone) },
      { label: 'Transfer to', cell: (leaver) => leaver.transferTo ?? '—' },
      {
        label: 'Why and notes',
        className: 'message',
        cell: (leaver) =>
          html`${leaver.reason ?? ''}${leaver.rule === undefined ? '' : html`<div class="muted small">${leaver.rule}</div>`}${leaver.notes.length === 0 ? '' : html`<ul class="notes">${leaver.notes.map((note) => html`<li>${note}</li>`)}</ul>`}`,
      },
    ],
  });
}
