import path from 'node:path';
import type { Notifier } from '../governance/notifications/notification-event.js';
import type { Drift } from './drift-check.js';
import { describeOutsideChange, type OutsideChange } from './outside-change.js';

/** What became of a drift's reconciliation. */
export type DriftReconciliation =
  | { queued: string; existed: boolean }
  | { awaitingApproval: string }
  | { heldBecause: string[] }
  | { nothingToChange: true };

/**
 * Queues the reconciliation of one user by one policy through the usual plan, guardrails and approvals (a policy run
 * restricted to that user); the composition root gives it, since the approvals gate is assembled there. `runAt` is the
 * change's time, so the same change reconciled twice finds one batch.
 */
export type ReconcileDrift = (drift: Drift, runAt: Date) => Promise<DriftReconciliation>;

export interface ActOnDriftOptions {
  notifier: Notifier;
  /** Absent: drift is only told (no access token, or a process that does not reconcile). */
  reconcile?: ReconcileDrift;
  target: string;
  sim: boolean;
  /** Stable per change and policy: a drift handled twice is told once. */
  id: string;
}

/**
 * What seatflow does about a drift (docs/events.md#drift): when the policy says `onDrift: reconcile`, queue the user's
 * reconciliation; then tell the `drift.detected` subscribers what happened and what was done.
 */
export async function actOnDrift(drift: Drift, change: OutsideChange, options: ActOnDriftOptions): Promise<DriftReconciliation | undefined> {
  const reconciled = drift.onDrift === 'reconcile' && options.reconcile !== undefined ? await options.reconcile(drift, new Date(change.at)) : undefined;
  const policyName = path.basename(drift.policy.path);
  await options.notifier.notify({
    id: options.id,
    type: 'drift.detected',
    title: `Drift: ${drift.email} is ${drift.now} after a change outside seatflow; ${policyName} says ${drift.wanted}`,
    text: [
      `What happened: ${describeOutsideChange(change)}.`,
      `${drift.policy.kind === 'lifecycle' ? 'Lifecycle' : 'Licence'} policy ${drift.policy.path} (${drift.policy.from}), rule "${drift.rule}": ${drift.wanted}.`,
      `What seatflow did: ${doneWords(drift, reconciled, options.reconcile !== undefined)}`,
    ].join('\n'),
    path: reconciled !== undefined && 'queued' in reconciled ? `/batches/${reconciled.queued}` : reconciled !== undefined && 'awaitingApproval' in reconciled ? `/approvals/${reconciled.awaitingApproval}` : '/audit',
    target: options.target,
    sim: options.sim,
    data: {
      email: drift.email,
      userId: drift.userId,
      planId: drift.planId,
      now: drift.now,
      wanted: drift.wanted,
      ...(drift.seatWanted === undefined ? {} : { seatNow: drift.seatNow ?? null, seatWanted: drift.seatWanted }),
      rule: drift.rule,
      policy: drift.policy.path,
      policyKind: drift.policy.kind,
      onDrift: drift.onDrift,
      change,
      ...(reconciled === undefined ? {} : { reconciled }),
    },
  });
  return reconciled;
}

function doneWords(drift: Drift, reconciled: DriftReconciliation | undefined, canReconcile: boolean): string {
  if (drift.policy.kind === 'lifecycle') return 'nothing: the next sync acts on what the HR export says (seatflow sync).';
  if (drift.onDrift === 'notify') return 'nothing (the policy says onDrift: notify); run the policy to reconcile.';
  if (!canReconcile) return 'nothing: this process cannot reconcile (no access token); run the policy to reconcile.';
  if (reconciled === undefined) return 'nothing.';
  if ('queued' in reconciled) return `queued the reconciliation as batch ${reconciled.queued}${reconciled.existed ? ' (already queued for this change)' : ''}.`;
  if ('awaitingApproval' in reconciled) return `the reconciliation waits for approval as ${reconciled.awaitingApproval}.`;
  if ('heldBecause' in reconciled) return `the reconciliation was held and changed nothing: ${reconciled.heldBecause.join('; ')}.`;
  return 'nothing: the pre-flight found no seat to change.';
}
