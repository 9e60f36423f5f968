import { formatHold } from '../workflow/hold-duration.js';
import { describeLeaver } from '../workflow/format-offboarding-plan.js';
import { callsToApply, callsToApplyLine, type CallRate } from '../plan/calls-at-rate.js';
import type { SyncPlan } from './sync-plan.js';
import { syncPlanCalls } from './sync-plan-calls.js';

/** Lines shown per section; the report has every one. */
const SHOWN = 40;
const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z');

/**
 * A sync plan for people: what was compared, then every joiner, mover and leaver with what causes it (what in the
 * export, which seat rule) and what it costs, the undos and transfer updates, who is protected or only listed, the
 * accidental-deletion check and the guardrails. Long sections show their first lines; the plan report has all.
 */
export function formatSyncPlan(plan: SyncPlan, rate?: CallRate): string {
  const lines: string[] = [];
  const ex = plan.export;
  lines.push(`HR export: ${ex.path} (${ex.format.toUpperCase()}, ${ex.employees} employees, written ${iso(ex.exportedAt)} by ${ex.exportedAtFrom === 'column' ? 'its generatedAt column' : "the file's time"})${ex.ignored.length === 0 ? '' : `; columns ignored: ${ex.ignored.join(', ')}`}`);
  lines.push(`Policy: ${plan.policy.path} (sha256 ${plan.policy.sha256.slice(0, 12)}); seats of plan ${plan.planId ?? '(none read)'}`);
  lines.push(plan.previous === undefined ? 'Compared with: nothing accepted yet for this target and policy (a first sync: no movers, no one gone)' : `Compared with: the export accepted ${plan.previous.acceptedAt} (${plan.previous.employees} employees, written ${iso(plan.previous.exportedAt)}, ${plan.previous.file})`);
  const leavers = plan.leavers?.leavers ?? [];
  const change = <T extends { verdict: string }>(items: readonly T[]) => items.filter((item) => item.verdict === 'change').length;
  lines.push(
    `Plan: ${change(plan.joiners)} joiners, ${change(plan.movers)} movers, ${leavers.filter((l) => l.verdict !== 'refused').length} leavers, ${plan.undos.length} offboardings undone, ${plan.transfers.length} transfer targets changed; ` +
      `${plan.notInExport.length} in the organization and not in the export, ${plan.protected.length} protected (run ${plan.runId}; ${plan.apiCalls} calls)`,
  );

  section(lines, 'Joiners (on the start date: added, or a rehire reactivated, then given the seat)', plan.joiners, (joiner) => {
    const when = `${joiner.how} ${joiner.dueAt <= plan.plannedAt ? 'now' : `on ${iso(joiner.dueAt)}`}${joiner.employee.start === undefined ? '' : ` (${joiner.employee.start.column}: ${joiner.employee.start.readAs})`}`;
    const what = joiner.verdict === 'change' ? `${when}; ${joiner.seat.seat} by rule ${joiner.seat.rule}: ${joiner.cost}` : `${joiner.verdict.toUpperCase()}${joiner.rule === undefined ? '' : ` (${joiner.rule})`}: ${joiner.reason ?? ''}`;
    return `${joiner.employee.email}  ${what} — ${joiner.cause}`;
  });
  section(lines, 'Movers (on the effective date: the seat the new department, title or location is given)', plan.movers, (mover) => {
    const when = mover.dueAt <= plan.plannedAt ? 'now' : `on ${iso(mover.dueAt)}${mover.employee.effective === undefined ? '' : ` (${mover.employee.effective.column}: ${mover.employee.effective.readAs})`}`;
    const what = mover.verdict === 'change' ? `${mover.action} ${mover.user.seat ?? '?'} → ${mover.seat.seat} ${when} by rule ${mover.seat.rule}` : `${mover.verdict.toUpperCase()}${mover.rule === undefined ? '' : ` (${mover.rule})`}: ${mover.reason ?? ''}`;
    return `${mover.employee.email}  ${what} — ${mover.cause}`;
  });
  if (plan.leavers !== undefined) {
    const options = plan.leavers.options;
    section(lines, `Leavers (the offboarding: deactivate on the date, hold ${formatHold(options.holdMs)}, remove with transfer to the manager${options.transferTo === undefined ? '' : `, else ${options.transferTo}`})`, leavers, (leaver) => {
      const notes = leaver.notes.length === 0 ? '' : `; ${leaver.notes.join('; ')}`;
      return `${leaver.email}  ${describeLeaver(leaver, options.holdMs)}${notes} — ${plan.leaverCauses[leaver.row]?.cause ?? ''}`;
    });
  }
  section(lines, 'Undone (employed again while their offboarding is open: the removal is cancelled, a deactivated user reactivated)', plan.undos, (undo) => `${undo.employee.email}  undo offboarding ${undo.workflowId} — ${undo.cause}`);
  section(lines, 'Transfer targets (an open offboarding now transfers to the new manager, judged again at the end of the hold)', plan.transfers, (t) => `${t.employee.email}  offboarding ${t.workflowId}: ${t.from ?? '(none)'} → ${t.to}`);
  section(lines, 'Protected (never touched)', plan.protected, (item) => `${item.email}  ${item.note}`);
  section(lines, 'Seen, not acted on', plan.listed, (item) => `${item.email}  ${item.note}`);
  section(lines, 'In the organization, not in the export', plan.notInExport, (item) => `${item.email}  ${item.note}`, 10);
  const { missing } = plan;
  lines.push(
    `Accidental-deletion check: ${Math.max(missing.gone, missing.absentLeavers)} ${plan.previous === undefined ? `of the organization's ${missing.base} users` : `of the ${missing.base} employees of the last accepted export`} missing (${(100 * missing.share).toFixed(1)}%; the policy's safety.maxMissingShare ${(100 * missing.threshold).toFixed(0)}%)${missing.broken ? ': BROKEN EXPORT, nothing is done unless confirmed with --accept-missing' : ''}`,
  );
  if (rate !== undefined) lines.push(callsToApplyLine(callsToApply(syncPlanCalls(plan), rate)));
  if (plan.guardrails.needsConfirmation) lines.push(`Guardrails: ${plan.guardrails.reasons.join('; ')}`);
  return `${lines.join('\n')}\n`;
}

function section<T>(lines: string[], title: string, items: readonly T[], line: (item: T) => string, shown = SHOWN): void {
  if (items.length === 0) return;
  lines.push(`${title}: ${items.length}`);
  for (const item of items.slice(0, shown)) lines.push(`    ${line(item)}`);
  if (items.length > shown) lines.push(`    … and ${items.length - shown} more (every one in the plan report)`);
}
