import type { ApprovalRecord } from '../../../governance/approvals/approval-record.js';
import type { PlanLine } from '../../../governance/approvals/plan-fingerprint.js';
import { cardTable } from '../card-table.js';
import { html, type SafeHtml } from '../html.js';
import { leaversPlanTable, planRowsTable } from './plan-tables.js';

/** What an offboarding's request was planned with (its stored input), as far as the plan's view needs it. */
export interface OffboardingSettings {
  holdMs: number;
  timeZone?: string | undefined;
}

const rowOf = (line: PlanLine): number => Number(/(\d+)$/.exec(line.key)?.[1] ?? 0);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * The plan of a change request as its requester saw it, in the same table and words: a batch's rows with their
 * verdicts and why (old → new for updates), an offboarding's leavers with their dates in the plan's zone and the end of
 * the hold; other kinds (syncs, reconciliation runs) line by line.
 */
export function approvalPlan(record: ApprovalRecord, lines: readonly PlanLine[], offboarding: OffboardingSettings | undefined): SafeHtml {
  const caption = 'The plan awaiting approval';
  if (record.kind === 'offboarding' && offboarding !== undefined) {
    const leavers = lines.map((line) => ({
      row: rowOf(line),
      line: number(line.view?.line),
      email: text(line.decision.email) ?? line.text,
      verdict: text(line.decision.verdict) ?? '?',
      leaveAt: number(line.decision.leaveAt),
      transferTo: text(line.view?.transferTo),
      reason: text(line.view?.reason),
      rule: text(line.decision.rule),
      notes: text(line.view?.notes)?.split('\n') ?? [],
    }));
    return leaversPlanTable(leavers, { holdMs: offboarding.holdMs, zone: offboarding.timeZone, caption });
  }
  if (lines.every((line) => line.view?.subject !== undefined)) {
    const rows = lines.map((line) => {
      const action = line.decision.action;
      return {
        row: rowOf(line),
        line: number(line.view?.line),
        action: text(line.view?.action) ?? (typeof action === 'object' && action !== null ? String((action as { action?: unknown }).action) : String(action)),
        subject: text(line.view?.subject) ?? '',
        verdict: text(line.decision.verdict) ?? '?',
        reason: text(line.view?.reason),
        rule: text(line.decision.rule),
      };
    });
    return planRowsTable(rows, caption);
  }
  return cardTable({
    caption,
    className: 'rows',
    items: lines,
    columns: [
      { label: 'Row', cell: (line) => line.key },
      { label: 'What', names: true, className: 'message', cell: (line) => html`${line.text}` },
    ],
  });
}
