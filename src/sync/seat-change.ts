import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { UserPlan, UserStatus } from '../contract/index.js';
import type { Action } from '../manifest/action.js';
import type { PlannedRow } from '../plan/planned-row.js';
import { seatReading } from '../plan/seat-reading.js';
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

/** What a seat change is judged on: the user's status and admin flag, and their seats (all of them, or the plan's). */
export interface SeatFacts {
  status?: UserStatus | undefined;
  admin?: boolean | undefined;
  plans: readonly Pick<UserPlan, 'planId' | 'seatType' | 'isInternal'>[];
  /**
   * When they were read (service clock, ISO): the row keeps them as its state before for as long as such a reading
   * stands (planned-state-before.ts), and reads the seat again just before its call when it runs later.
   */
  readAt: string;
}

/**
 * The upgrade or downgrade row that gives the user `wanted` in the plan, judged on what the service says now (the
 * user's status and admin flag, the seat and isInternal in the plan): the rules of docs/service.md#downgrade-and-upgrade.
 * A move the service refuses, or that would take admin rights away, is not made: the reason says what to do instead.
 * Reads the profile (unless `known` gives its status and admin flag) and the user's plans.
 */
export async function seatChangeFor(api: SmartsheetApi, subject: SeatChangeSubject, planId: number | undefined, wanted: PolicySeat, clock: () => number, signal?: AbortSignal, known?: Pick<SeatFacts, 'status' | 'admin'>): Promise<SeatChange> {
  const call = signal === undefined ? {} : { signal };
  const readAt = new Date(clock()).toISOString();
  const profile = known ?? (await api.users.get(subject.userId, call));
  const plans = [];
  for await (const plan of api.users.listPlans(subject.userId, call)) plans.push(plan);
  return judgeSeatChange(subject, planId, wanted, { status: profile.status, admin: profile.admin, plans, readAt });
}

/** seatChangeFor on facts already read (a plan's bulk reading that still stands): no call. */
export function judgeSeatChange(subject: SeatChangeSubject, planId: number | undefined, wanted: PolicySeat, facts: SeatFacts): SeatChange {
  const { plans } = facts;
  const plan = planId === undefined ? (plans.length === 1 ? plans[0] : undefined) : plans.find((each) => each.planId === planId);
  if (plan === undefined) {
    return { kind: 'skip', reason: planId === undefined ? `the user is in ${plans.length} plans and the policy names no planId` : `the user holds no seat in plan ${planId}` };
  }
  const current = policySeatOf({ seatType: plan.seatType, status: facts.status, isInternal: plan.isInternal ?? undefined });
  if (current === wanted) return { kind: 'same', seat: wanted };
  const skip = (reason: string): SeatChange => ({ kind: 'skip', reason, from: current });
  if (wanted === 'PROVISIONAL_MEMBER') return skip(`the user holds ${current ?? 'no known seat'}; the service gives a PROVISIONAL_MEMBER seat only on add, no seat change leads to it`);
  if (wanted === 'GUEST' && plan.isInternal !== false) return skip('GUEST seats are for external users only (the user is internal: docs/service.md#downgrade-and-upgrade)');
  if (current === undefined) return skip('the service reports no seat type for the user in the plan: the seat is left as it is');
  const move = seatMoveOf(current, wanted);
  if (move === 'downgrade') {
    if (facts.status !== 'ACTIVE') return skip(`the user is ${facts.status ?? 'of unknown status'}: the service downgrades Active users only (an invited user's seat can be lowered once they accept)`);
    if (facts.admin === true) return skip('the user is a System Admin: a sync does not take admin rights away (a downgrade would); change it in Admin Center');
  }
  const seatType = wanted;
  const seatBefore = { ...(plan.seatType === undefined ? {} : { seatType: plan.seatType }), ...(facts.admin === undefined ? {} : { admin: facts.admin }) };
  const action = (move === 'downgrade'
    ? { action: 'downgrade', user: { email: subject.email }, planId: plan.planId, seatType }
    : { action: 'upgrade', user: { email: subject.email }, planId: plan.planId, seatType }) as Action;
  return {
    kind: 'row',
    from: current,
    to: wanted,
    // The seat and admin flag just read are the row's state before (its revert's) while that reading stands: a row run
    // later reads the seat again, and ends unchanged if someone gave it meanwhile.
    row: { row: subject.row, line: subject.line, action, actionName: action.action, verdict: 'change', target: { userId: subject.userId, email: subject.email, planId: plan.planId, seatBefore, readAtPlan: { readAt: facts.readAt, state: seatReading(plan.planId, plan.seatType, { value: facts.admin, clearedByRow: false }) } } },
  };
}
