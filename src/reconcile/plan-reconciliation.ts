import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { checkGuardrails, type GuardrailCheck } from '../plan/guardrails.js';
import { planManifest } from '../plan/plan-manifest.js';
import type { BatchPlan } from '../plan/planned-row.js';
import { evaluatePolicy, type SeatDecision } from './evaluate-policy.js';
import { loadPolicy, type LoadedPolicy } from './load-policy.js';
import { policyManifest } from './policy-manifest.js';
import { readPlanUsers } from './read-plan-users.js';
import { checkRunLimits, type RunLimitCheck } from './run-limits.js';
import { countSeats, type SeatCount } from './count-seats.js';

export interface PlanReconciliationOptions {
  policyPath: string;
  /** A client on the shared request budget, retrying its reads (the live read and the pre-flight only GET). */
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  /** When the run happens; ages are measured from it. Default: `clock`'s time after the live read, else now. */
  now?: Date;
  /**
   * The service's clock (service-clock.ts): last-login and seat ages are measured on the service's time, read after
   * the live read (so a Date header has been seen, or the reference server's clock asked).
   */
  clock?: Pick<Clock, 'now' | 'refresh'>;
  /**
   * Only these users of the plan (a drift's reconciliation, docs/events.md#drift): the policy decides for them alone,
   * and a share limit means nothing for a handful of users, so only maxChanges applies.
   */
  onlyEmails?: readonly string[];
}

export interface ReconciliationPlan {
  policy: LoadedPolicy;
  planId: number;
  ranAt: Date;
  /** Users holding a seat in the plan, as read. */
  usersRead: number;
  /** Their seats as the service bills them: deactivated users hold no paid seat. */
  seats: SeatCount;
  /** Every user's decision (excluded, matched, or untouched). */
  decisions: SeatDecision[];
  /** The decisions that became manifest rows: row i+1 of `plan` is changes[i]. */
  changes: SeatDecision[];
  /** The same verdicts as `seatflow plan` gives (change, no-op, refused, …), from the existing pre-flight. */
  plan: BatchPlan;
  guardrails: GuardrailCheck;
  limits: RunLimitCheck;
  /** HTTP calls: the live read plus the pre-flight. */
  apiCalls: number;
  /** The users the run was restricted to, when it was (onlyEmails). */
  onlyEmails?: readonly string[];
}

/**
 * Policy → live seats → decisions → a manifest of the difference → the existing pre-flight. Changes nothing.
 * The share limits count against the plan's users; the guardrails against the organization's, as for any manifest.
 */
export async function planReconciliation(options: PlanReconciliationOptions): Promise<ReconciliationPlan> {
  const policy = await loadPolicy(options.policyPath);
  const live = await readPlanUsers(options.api, policy.policy.planId, options.onlyEmails);
  await options.clock?.refresh?.();
  const ranAt = options.now ?? new Date(options.clock?.now() ?? Date.now());
  const decisions = evaluatePolicy(live.users, policy, { now: ranAt, protectedAccounts: options.guardrails.protectedAccounts, callerId: live.caller.id });
  const changes = decisions.filter((decision) => decision.action !== undefined);
  const plan = changes.length === 0 ? emptyPlan(policy) : await preflightChanges(changes, live.planId, policy, options);
  const changing = plan.summary.change;
  return {
    policy,
    planId: live.planId,
    ranAt,
    usersRead: live.users.length,
    seats: countSeats(live.users),
    decisions,
    changes,
    plan,
    guardrails: checkGuardrails(plan, options.guardrails),
    limits: checkRunLimits(changing, options.onlyEmails === undefined ? live.users.length : 0, policy.policy.limits),
    apiCalls: live.apiCalls + plan.apiCalls,
    ...(options.onlyEmails === undefined ? {} : { onlyEmails: options.onlyEmails }),
  };
}

async function preflightChanges(changes: SeatDecision[], planId: number, policy: LoadedPolicy, options: PlanReconciliationOptions): Promise<BatchPlan> {
  const { plan } = await planManifest({
    path: policy.path,
    content: policyManifest(changes, planId),
    format: 'json',
    api: options.api,
    guardrails: options.guardrails,
    refusalHint: 'The policy produced rows the manifest checks refuse; check the policy and the source-of-truth files.',
    // On the service's clock only: the rows then keep the seats read here while that reading stands.
    ...(options.clock === undefined ? {} : { readAtMs: options.clock.now() }),
  });
  return plan;
}

function emptyPlan(policy: LoadedPolicy): BatchPlan {
  return {
    rows: [],
    summary: { total: 0, change: 0, 'no-op': 0, refused: 0, 'not-found': 0, conflict: 0, invalid: 0 },
    apiCalls: 0,
    source: { path: policy.path, sha256: policy.sha256, format: 'json' },
  };
}
