import type { ApprovalRecord } from '../governance/approvals/approval-record.js';
import type { PlanLine } from '../governance/approvals/plan-fingerprint.js';
import { callsToApply, callsToApplyLine, type CallRate } from '../plan/calls-at-rate.js';

/**
 * One change request for a person deciding about it: what, who asked and why, the plan and its hash; with the
 * configured rate, the calls applying the plan makes, as the requester's plan said them.
 */
export function formatApproval(record: ApprovalRecord, lines: readonly PlanLine[], options: { linesShown?: number; rate?: CallRate } = {}): string {
  const shown = options.linesShown ?? 50;
  const out = [
    `${record.kind} ${record.id}: ${record.state}${record.sim ? '  [SIMULATION]' : ''}`,
    `  what:       ${record.subject}`,
    `  target:     ${record.target}`,
    `  requested:  ${record.requestedAt} by ${record.requestedBy.name}${record.reason === undefined ? '' : `, reason: ${record.reason}`}`,
    `  why:        ${record.why.join('; ')}`,
    ...(record.guardrails.length === 0 ? [] : [`  guardrails: ${record.guardrails.join('; ')} (confirmed by the requester)`]),
    `  plan:       ${record.planHash}`,
    `              ${record.changes} change${record.changes === 1 ? '' : 's'} (${record.destructive} destructive); ${Object.entries(record.summary).map(([k, v]) => `${v} ${k}`).join(', ')}`,
  ];
  if (options.rate !== undefined && record.callsToApply !== undefined) out.push(`              ${callsToApplyLine(callsToApply(record.callsToApply, options.rate))}`);
  if (record.staleDifference !== undefined && record.state === 'awaiting-approval') {
    out.push('  The plan approved before went stale (live state changed); what differs now:', ...record.staleDifference.map((line) => `    ${line}`));
  }
  if (record.approvedBy !== undefined) out.push(`  approved:   ${record.approvedAt ?? ''} by ${record.approvedBy}`);
  if (record.rejectedBy !== undefined) out.push(`  rejected:   ${record.rejectedAt ?? ''} by ${record.rejectedBy}: ${record.rejectionReason ?? ''}`);
  if (record.resultId !== undefined) out.push(`  queued as:  ${record.resultId}   (seatflow status ${record.resultId})`);
  if (lines.length > 0) {
    out.push('  rows:');
    for (const line of lines.slice(0, shown)) out.push(`    ${line.key}: ${line.text}`);
    if (lines.length > shown) out.push(`    … ${lines.length - shown} more (the dashboard's approval page lists every row)`);
  }
  return `${out.join('\n')}\n`;
}

/** One line per request, for lists. */
export function approvalLine(record: ApprovalRecord): string {
  return `${record.id}  ${record.state.padEnd(17)} ${record.kind.padEnd(14)} ${record.requestedAt}  by ${record.requestedBy.name}  ${record.changes} changes  ${record.sim ? '[SIMULATION] ' : ''}${record.subject}`;
}
