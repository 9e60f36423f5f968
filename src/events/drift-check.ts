import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import { evaluatePolicy } from '../reconcile/evaluate-policy.js';
import { loadPolicy } from '../reconcile/load-policy.js';
import { readPlanUsers } from '../reconcile/read-plan-users.js';
import type { OutsideChange } from './outside-change.js';

/**
 * A policy seatflow holds the organization to, and why it is in force: a licence (reconciliation) policy, or the
 * lifecycle policy of an HR sync (docs/events.md#drift).
 */
export interface PolicyInForce {
  path: string;
  kind: 'reconciliation' | 'lifecycle';
  /** `config events.policies`, or `schedule <name>`. */
  from: string;
}

/** A user who, after a change made elsewhere, is not what a policy says they should be (docs/events.md#drift). */
export interface Drift {
  policy: PolicyInForce;
  policySha256: string;
  email: string;
  userId: number;
  planId: number;
  /** What the user holds or is now, in words (`MEMBER`, `deactivated`), and what the policy gives. */
  now: string;
  wanted: string;
  /** The seats, when the drift is a seat (a reconciliation can restore it). */
  seatNow?: string;
  seatWanted?: string;
  /** The rule that decided, as the policy names it. */
  rule: string;
  /** What the policy asks for on drift; a lifecycle policy only tells. */
  onDrift: 'notify' | 'reconcile';
}

export interface DriftCheckOptions {
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  /** The service's time: ages (last login, invitation) are measured on it. */
  now: Date;
}

/**
 * Whether a licence policy forbids the seat a user holds after a change made elsewhere: the policy decides for that one
 * user (read live, with the plan's seat and last login: two calls), exactly as a run of it would (first matching rule,
 * exclusions first). A user outside the policy's plan, excluded, or holding the seat a rule gives is no drift.
 */
export async function checkReconciliationDrift(change: OutsideChange, policy: PolicyInForce, options: DriftCheckOptions): Promise<Drift | undefined> {
  if (change.email === undefined) return undefined;
  const loaded = await loadPolicy(policy.path);
  const live = await readPlanUsers(options.api, loaded.policy.planId, [change.email]);
  const decisions = evaluatePolicy(live.users, loaded, { now: options.now, protectedAccounts: options.guardrails.protectedAccounts, callerId: live.caller.id });
  const decision = decisions.find((item) => item.email === change.email);
  if (decision?.action === undefined || decision.seatAfter === undefined) return undefined;
  const seatNow = decision.seatBefore ?? 'no known seat';
  return {
    policy,
    policySha256: loaded.sha256,
    email: decision.email,
    userId: decision.userId,
    planId: live.planId,
    now: seatNow,
    wanted: decision.seatAfter,
    seatNow,
    seatWanted: decision.seatAfter,
    rule: decision.rule ?? '',
    onDrift: loaded.policy.onDrift,
  };
}
