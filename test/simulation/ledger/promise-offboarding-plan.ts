import type { Ledger } from './ledger.js';
import { userKey, type PromiseState } from './promise.js';

/** A leaver as an offboarding's plan shows them (POST /v1/offboardings, a sync's leavers). */
export interface ShownLeaver {
  /** The leaver's row in the offboarding; a sync's report names leavers by e-mail only. */
  row?: number;
  email: string;
  userId?: number;
  leaveAt: number;
  verdict: string;
}

export interface ShownOffboardingPlan {
  workflowId: string;
  leavers: readonly ShownLeaver[];
  holdMs: number;
  eventSeq: number;
  state: PromiseState;
  /** Service time the plan was made. */
  at: number;
  label: string;
}

/**
 * An offboarding's plan as promises: per leaver not refused, the deactivation at the leave instant (unless already
 * deactivated) and the removal at the end of the hold after it, each reported by its step batch's row
 * (`<offboarding>-deactivate`, `-remove`). Returns the keys made.
 */
export function promiseOffboardingPlan(ledger: Ledger, plan: ShownOffboardingPlan): string[] {
  const keys: string[] = [];
  for (const leaver of plan.leavers) {
    if (leaver.verdict === 'refused' || leaver.userId === undefined) continue;
    const base = { eventSeq: plan.eventSeq, state: plan.state, since: plan.at };
    if (leaver.verdict !== 'already-deactivated') {
      const key = `${plan.workflowId}:${leaver.email}:deactivate`;
      ledger.promise({
        ...base,
        key,
        label: `${plan.label}: deactivate ${leaver.email}`,
        changes: [{ operation: 'deactivateUser', subject: userKey(leaver.userId) }],
        notBefore: leaver.leaveAt,
        outcome: { batchIds: [`${plan.workflowId}-deactivate`], ...whereIs(leaver) },
      });
      keys.push(key);
    }
    const key = `${plan.workflowId}:${leaver.email}:remove`;
    ledger.promise({
      ...base,
      key,
      label: `${plan.label}: remove ${leaver.email} after the hold`,
      changes: [{ operation: 'removeUser', subject: userKey(leaver.userId) }],
      notBefore: leaver.leaveAt + plan.holdMs,
      outcome: { batchIds: [`${plan.workflowId}-remove`], ...whereIs(leaver) },
    });
    keys.push(key);
  }
  return keys;
}

function whereIs(leaver: ShownLeaver): { row: number } | { email: string } {
  return leaver.row === undefined ? { email: leaver.email } : { row: leaver.row };
}
