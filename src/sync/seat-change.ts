import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Action } from '../manifest/action.js';
import type { PlannedRow } from '../plan/planned-row.js';
import { policySeatOf, seatMoveOf } from '../reconcile/evaluate-policy.js';
import type { PolicySeat } from '../reconcile/policy.js';

/** What it takes to give a user the seat a policy names: nothing, a seat row, or nothing possible (and why). */
export type SeatChange = { kind: 'same'; seat: PolicySeat } | { kind: 'row'; row: PlannedRow; from: PolicySeat | undefined; to: PolicySeat } | { kind: 'skip'; reason: string; from?: PolicySeat | undefined };

export interface SeatChangeSubject {
  row: number;
  line: number;
  email: string;
  userId: number;
}

/**
 * The upgrade or downgrade row that gives the user `wanted` in the plan, judged on what the service says now (the
 * user's status and admin flag, the seat and isInternal in the plan): the rules of docs/service.md#downgrade-and-upgrade.
 * A move the service refuses, or that would take admin rights away, is not made: the reason says what to do instead.
 * Reads only.
 */
export async function seatChangeFor(api: SmartsheetApi, subject: SeatChangeSubject, planId: number | undefined, wanted: PolicySeat, signal?: AbortSignal): Promise<SeatChange> {
  const call = signal === undefined ? {} : { signal };
  const profile = await api.users.get(subject.userId, call);
  const plans = [];
  for await (const plan of api.users.listPlans(subject.userId, call)) plans.push(plan);
  const plan = planId === undefined ? (plans.length === 1 ? plans[0] : undefined) : plans.find((each) => each.planId === planId);
  if (plan === undefined) {
    return { kind: 'skip', reason: planId === undefined ? `the user is in ${plans.length} plans and the policy names no planId` : `the user holds no seat in plan ${planId}` };
  }
  const current = policySeatOf({ seatType: plan.seatType, status: profile.status, isInternal: plan.isInternal ?? undefined });
  if (current === wanted) return { kind: 'same', seat: wanted };
  const skip = (reason: string): SeatChange => ({ kind: 'skip', reason, from: current });
  if (wanted === 'PROVISIONAL_MEMBER') return skip(`the user holds ${current ?? 'no known seat'}; the service gives a PROVISIONAL_MEMBER seat only on add, no seat change leads to it`);
  if (wanted === 'GUEST' && plan.isInternal !== false) return skip('GUEST seats are for external users only (the user is internal: docs/service.md#downgrade-and-upgrade)');
  if (current === undefined) return skip('the service reports no seat type for the user in the plan: the seat is left as it is');
  const move = seatMoveOf(current, wanted);
  if (move === 'downgrade') {
    if (profile.status !== 'ACTIVE') return skip(`the user is ${profile.status ?? 'of unknown status'}: the service downgrades Active users only (an invited user's seat can be lowered once they accept)`);
    if (profile.admin === true) return skip('the user is a System Admin: a sync does not take admin rights away (a downgrade would); change it in Admin Center');
  }
  const seatType = wanted;
  const action = (move === 'downgrade'
    ? { action: 'downgrade', user: { email: subject.email }, planId: plan.planId, seatType }
    : { action: 'upgrade', user: { email: subject.email }, planId: plan.planId, seatType }) as Action;
  return {
    kind: 'row',
    from: current,
    to: wanted,
    // The seat and admin flag just read are the row's state before (its revert's), as a pre-flight's are: no read again.
    row: { row: subject.row, line: subject.line, action, actionName: action.action, verdict: 'change', target: { userId: subject.userId, email: subject.email, planId: plan.planId, seatBefore: { ...(plan.seatType === undefined ? {} : { seatType: plan.seatType }), ...(profile.admin === undefined ? {} : { admin: profile.admin }) } } },
  };
}
