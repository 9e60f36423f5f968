import { printable } from '../core/printable.js';
import { summaryLine } from '../plan/format-plan.js';
import type { ReconciliationPlan } from './plan-reconciliation.js';
import { describeSeats } from './count-seats.js';
import { plural } from '../core/plural.js';
import { batchPlanCalls } from '../plan/batch-plan-calls.js';
import { callsToApply, callsToApplyLine, type CallRate } from '../plan/calls-at-rate.js';

/**
 * A reconciliation plan for people: what was read, then one line per seat change with the rule that matched, the
 * seat before and after and the pre-flight's verdict (the same verdicts as `seatflow plan`), then limits and guardrails.
 * With the configured rate, the calls applying it makes (one per seat to change) and how long they take, as every plan says.
 */
export function formatReconciliation(run: ReconciliationPlan, rate?: CallRate): string {
  const excluded = run.decisions.filter((decision) => decision.excluded !== undefined).length;
  const matched = run.decisions.filter((decision) => decision.rule !== undefined);
  const head = [
    `Policy: ${printable(run.policy.path)} (sha256 ${run.policy.sha256.slice(0, 12)})`,
    `Plan ${run.planId}: ${plural(run.usersRead, 'user')} read with their last login (${plural(run.usersRead === 0 ? 0 : Math.ceil(run.usersRead / 100), 'page')} of ≤100), ` +
      `${excluded} excluded, ${matched.length} matched a rule, ${run.changes.length} ${run.changes.length === 1 ? 'needs' : 'need'} a seat change`,
    `Seats: ${describeSeats(run.seats)}`,
    '',
  ];
  const header = ['row', 'email', 'rule', 'seat', 'verdict'];
  const byRow = new Map(Array.from(run.plan.rows, (row) => [row.row, row]));
  const cells = run.changes.map((decision, index) => {
    const planned = byRow.get(index + 1);
    const verdict = planned === undefined ? '?' : planned.verdict;
    const why = planned === undefined || planned.verdict === 'change' ? '' : `${planned.rule === undefined ? '' : `[${planned.rule}] `}${planned.reason ?? ''}`;
    return [String(index + 1), decision.email, decision.rule ?? '', `${decision.seatBefore ?? '?'} → ${decision.seatAfter ?? '?'}`, verdict, why].map((cell) => printable(cell));
  });
  // A loop, not an argument per row: a policy over a large organization would overflow the call stack.
  const widths = header.map((title, i) => cells.reduce((most, row) => Math.max(most, row[i]!.length), title.length));
  const line = (row: string[]) => row.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd();
  const table = cells.length === 0 ? ['No seat needs to change.'] : [line([...header, 'reason']), line([...widths.map((w) => '-'.repeat(w)), '------']), ...cells.map(line)];
  const tail = ['', summaryLine({ ...run.plan, apiCalls: run.apiCalls })];
  if (rate !== undefined) tail.push(callsToApplyLine(callsToApply(batchPlanCalls(run.plan), rate)));
  for (const reason of run.limits.reasons) tail.push(`limit: ${reason}`);
  for (const reason of run.guardrails.reasons) tail.push(`guardrail: ${reason}`);
  return `${[...head, ...table, ...tail].join('\n')}\n`;
}
