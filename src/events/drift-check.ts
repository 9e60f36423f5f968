import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import { evaluatePolicy } from '../reconcile/evaluate-policy.js';
import { loadPolicy } from '../reconcile/load-policy.js';
import type { PolicySeat, TargetSeat } from '../reconcile/policy.js';
import { readPlanUsers } from '../reconcile/read-plan-users.js';
import type { OutsideChange } from './outside-change.js';

/** A policy seatflow holds the organization to: a reconciliation policy file, and why it is in force. */
export interface PolicyInForce {
  path: string;
  /** `config events.policies`, or `schedule <name>`. */
  from: string;
}

/** A user whose seat, after a change made elsewhere, is not the one a policy gives them (docs/events.md#drift). */
export interface Drift {
  policy: PolicyInForce;
  policySha256: string;
  email: string;
  userId: number;
  planId: number;
  seatNow: PolicySeat | undefined;
  seatWanted: TargetSeat;
  rule: string;
  /** What the policy asks for on drift. */
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
 * Whether a policy forbids the seat a user holds after a change made elsewhere: the policy decides for that one user
 * (read live, with the plan's seat and last login: two calls), exactly as a run of it would (first matching rule,
 * exclusions first). A user outside the policy's plan, excluded, or holding the seat a rule gives is no drift.
 */
export async function checkDrift(change: OutsideChange, policy: PolicyInForce, options: DriftCheckOptions): Promise<Drift | undefined> {
  if (change.email === undefined) return undefined;
  const loaded = await loadPolicy(policy.path);
  const live = await readPlanUsers(options.api, loaded.policy.planId, [change.email]);
  const decisions = evaluatePolicy(live.users, loaded, { now: options.now, protectedAccounts: options.guardrails.protectedAccounts, callerId: live.caller.id });
  const decision = decisions.find((item) => item.email === change.email);
  if (decision?.action === undefined || decision.seatAfter === undefined) return undefined;
  return {
    policy,
    policySha256: loaded.sha256,
    email: decision.email,
    userId: decision.userId,
    planId: live.planId,
    seatNow: decision.seatBefore,
    seatWanted: decision.seatAfter,
    rule: decision.rule ?? '',
    onDrift: loaded.policy.onDrift,
  };
}
