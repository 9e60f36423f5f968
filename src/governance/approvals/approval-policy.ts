import type { ChangeKind, GovernanceConfig } from '../../core/governance-config.js';
import { UsageError } from '../../core/seatflow-error.js';
import { ACTION_NAMES, type ActionName } from '../../manifest/action.js';
import type { PlanFingerprint } from './plan-fingerprint.js';

export type ApprovalPolicy = GovernanceConfig['approvals'];

/** The configured actions, checked once: a misspelt action would otherwise silently never require approval. */
export function checkApprovalPolicy(policy: ApprovalPolicy): ApprovalPolicy {
  const unknown = policy.actions.filter((action) => !(ACTION_NAMES as readonly string[]).includes(action));
  if (unknown.length > 0) {
    throw new UsageError(`configuration refused:\n  governance.approvals.actions: ${unknown.map((a) => `"${a}"`).join(', ')} is not an action`, `Actions are: ${ACTION_NAMES.join(', ')}.`);
  }
  return policy;
}

/**
 * Why a change needs a second person's approval; empty when it does not. A change that changes nothing needs none
 * (there is nothing to approve). `markedBy`: a policy that asks for approval itself (a reconciliation policy's
 * `requireApproval`).
 */
export function approvalReasons(kind: ChangeKind, plan: Pick<PlanFingerprint, 'changes' | 'destructive' | 'actions'>, policy: ApprovalPolicy, markedBy?: string): string[] {
  if (plan.changes === 0) return [];
  const reasons: string[] = [];
  if (policy.kinds.includes(kind)) reasons.push(`every ${kind} needs approval (governance.approvals.kinds)`);
  if (markedBy !== undefined) reasons.push(markedBy);
  if (policy.changesAbove !== undefined && plan.changes > policy.changesAbove) {
    reasons.push(`${plan.changes} changes, more than governance.approvals.changesAbove (${policy.changesAbove})`);
  }
  if (policy.destructiveAbove !== undefined && plan.destructive > policy.destructiveAbove) {
    reasons.push(`${plan.destructive} destructive changes, more than governance.approvals.destructiveAbove (${policy.destructiveAbove})`);
  }
  const listed = plan.actions.filter((action: ActionName) => policy.actions.includes(action));
  if (listed.length > 0) reasons.push(`rows with ${listed.join(', ')} (governance.approvals.actions)`);
  return reasons;
}
