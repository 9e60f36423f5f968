import { formatHold } from './hold-duration.js';
import type { LeaverVerdict, OffboardingPlan, PlannedLeaver } from './plan-offboarding.js';
import { plural } from '../core/plural.js';
import { callsToApply, callsToApplyLine, type CallRate } from '../plan/calls-at-rate.js';
import { leaverCalls } from './leaver-calls.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d{2}\.\d{3}Z$/, 'Z');

/** What will happen to one leaver, in words: the deactivation (when, and how its date was read), the removal, the transfer. */
export function describeLeaver(leaver: PlannedLeaver, holdMs: number): string {
  if (leaver.verdict === 'refused') return `REFUSED (${leaver.rule ?? 'refused'}): ${leaver.reason ?? ''}`;
  const removal = `remove after the hold, ${leaver.verdict === 'deactivate-on-date' ? '' : 'about '}${iso(leaver.leaveAt + holdMs)}`;
  // Without a target the removal pre-flight's note says so, and what becomes of the sheets.
  const transfer = leaver.transferTo === undefined ? '' : `, sheets and groups to ${leaver.transferTo.email}`;
  const groups = (leaver.groupsOwned ?? 0) > 0 ? `; owns ${leaver.groupsOwned} group(s)` : '';
  const first: Record<Exclude<LeaverVerdict, 'refused'>, string> = {
    'deactivate-now': 'deactivate now',
    // The instant, and the cell it was read from: a date alone stands for a time of day the person may not expect.
    'deactivate-on-date': `deactivate on ${iso(leaver.leaveAt)}${leaver.leaveDate === undefined ? '' : ` (${leaver.leaveDate.column}: ${leaver.leaveDate.readAs})`}`,
    'already-deactivated': 'already deactivated (no call)',
  };
  return `${first[leaver.verdict]}; ${removal}${transfer}${groups}`;
}

/**
 * The plan of an offboarding as text: one line per leaver with its verdict, then the notes; with the configured rate,
 * the calls applying it makes and how long they take.
 */
export function formatOffboardingPlan(plan: OffboardingPlan, rate?: CallRate): string {
  const count = (verdict: LeaverVerdict) => plan.leavers.filter((leaver) => leaver.verdict === verdict).length;
  const lines = [
    `Plan: ${plural(plan.leavers.length, 'leaver')}: ${count('deactivate-now')} deactivate now, ${count('deactivate-on-date')} on a later date, ` +
      `${count('already-deactivated')} already deactivated, ${count('refused')} refused (hold ${formatHold(plan.options.holdMs)}${plan.options.noUndoWindow === true ? ' (--no-undo-window)' : ''}` +
      `${plan.options.transferTo === undefined ? '' : `, --transfer-to ${plan.options.transferTo}`}${plan.options.removeFromSharing ? ', removed from sharing' : ''}; pre-flight used ${plural(plan.apiCalls, 'call')})`,
  ];
  const width = Math.min(40, plan.leavers.reduce((most, leaver) => Math.max(most, leaver.email.length), 0));
  for (const leaver of plan.leavers) {
    lines.push(`  ${String(leaver.row).padStart(3)}  ${leaver.email.padEnd(width)}  ${describeLeaver(leaver, plan.options.holdMs)}`);
    for (const note of leaver.notes) lines.push(`       note: ${note}`);
  }
  if (rate !== undefined) lines.push(callsToApplyLine(callsToApply(leaverCalls(plan.leavers), rate)));
  if (plan.guardrails.needsConfirmation) lines.push(`Guardrails: ${plan.guardrails.reasons.join('; ')}`);
  return `${lines.join('\n')}\n`;
}
