import { z } from 'zod';
import type { ActionName } from '../../manifest/action.js';
import { UsageError } from '../../core/seatflow-error.js';
import type { AppliedSync } from '../../sync/apply-sync.js';
import { heldReasons, prepareSync, type PrepareSyncOptions } from '../../sync/run-sync.js';
import { changesOf, type SyncPlan } from '../../sync/sync-plan.js';
import { syncPlanCalls } from '../../sync/sync-plan-calls.js';
import type { ApprovalGate, ChangeRequest } from '../approvals/approval-gate.js';
import type { ChangeKindHandler, QueuedChange } from '../approvals/change-kind.js';
import type { Actor } from '../operators/actor.js';
import type { PlanFingerprint, PlanLine } from '../approvals/plan-fingerprint.js';
import { fingerprintOfOffboarding } from './offboarding-kind.js';

/**
 * What a sync is planned from, kept with its request: the HR export's bytes and modification time (the export is
 * replaced every night; the approver plans this one), the lifecycle policy's path (read again), and whether the
 * requester confirmed an export the accidental-deletion threshold calls broken.
 */
export const syncInputSchema = z.object({
  exportPath: z.string(),
  contentBase64: z.string(),
  modifiedAt: z.number(),
  policyPath: z.string(),
  acceptMissing: z.boolean(),
});
export type SyncInput = z.infer<typeof syncInputSchema>;

/** `s…` + 12 hex: the change request of one sync run (target, policy and export), the id its approval is asked as. */
export function syncRequestIdOf(plan: Pick<SyncPlan, 'runHash'>): string {
  return `s${plan.runHash.slice(0, 12)}`;
}

/** A date that is still to come is part of the decision; "now" moves at every re-plan, so it is not. */
function dueOf(plan: Pick<SyncPlan, 'plannedAt'>, dueAt: number): { dueAt?: string } {
  return dueAt > plan.plannedAt ? { dueAt: new Date(dueAt).toISOString() } : {};
}

function when(due: { dueAt?: string }): string {
  return due.dueAt === undefined ? 'now' : `on ${due.dueAt}`;
}

/**
 * A sync's plan as approvers see it and its hash covers it: per joiner, mover, leaver, undo and transfer update, who,
 * what and (for a date to come) when. Leavers are the offboarding's own lines.
 */
export function fingerprintOfSync(plan: SyncPlan): PlanFingerprint {
  const lines: PlanLine[] = [];
  const actions = new Set<ActionName>();
  for (const joiner of plan.joiners) {
    const due = dueOf(plan, joiner.dueAt);
    if (joiner.verdict === 'change') actions.add(joiner.how);
    lines.push({
      key: `joiner ${joiner.employee.employeeId}`,
      text: `${joiner.how} ${joiner.employee.email} ${when(due)}, seat ${joiner.seat.seat} [${joiner.seat.rule}]: ${joiner.verdict}`,
      decision: { email: joiner.employee.email, how: joiner.how, verdict: joiner.verdict, seat: joiner.seat.seat, ...(joiner.rule === undefined ? {} : { rule: joiner.rule }), ...due },
    });
  }
  let downgrades = 0;
  for (const mover of plan.movers) {
    const due = dueOf(plan, mover.dueAt);
    if (mover.verdict === 'change') {
      actions.add(mover.action);
      if (mover.action === 'downgrade') downgrades += 1;
    }
    lines.push({
      key: `mover ${mover.employee.employeeId}`,
      text: `${mover.action} ${mover.employee.email} to ${mover.seat.seat} ${when(due)} [${mover.seat.rule}]: ${mover.verdict}`,
      decision: { email: mover.employee.email, userId: mover.user.id, action: mover.action, verdict: mover.verdict, seat: mover.seat.seat, ...(mover.rule === undefined ? {} : { rule: mover.rule }), ...due },
    });
  }
  const leavers = plan.leavers === undefined ? undefined : fingerprintOfOffboarding(plan.leavers);
  for (const line of leavers?.lines ?? []) lines.push({ ...line, key: `leaver ${line.key}` });
  for (const action of leavers?.actions ?? []) actions.add(action);
  for (const undo of plan.undos) {
    actions.add('reactivate');
    lines.push({ key: `undo ${undo.workflowId} ${undo.row}`, text: `undo the offboarding of ${undo.employee.email} (${undo.workflowId})`, decision: { email: undo.employee.email, workflowId: undo.workflowId } });
  }
  for (const transfer of plan.transfers) {
    lines.push({ key: `transfer ${transfer.workflowId} ${transfer.row}`, text: `${transfer.employee.email}'s removal transfers to ${transfer.to} (${transfer.workflowId})`, decision: { email: transfer.employee.email, workflowId: transfer.workflowId, to: transfer.to } });
  }
  return {
    lines,
    summary: { joiners: plan.joiners.length, movers: plan.movers.length, leavers: plan.leavers?.leavers.length ?? 0, undos: plan.undos.length, transfers: plan.transfers.length },
    changes: changesOf(plan),
    destructive: (leavers?.destructive ?? 0) + downgrades,
    actions: [...actions],
    calls: syncPlanCalls(plan),
  };
}

/** The change that applying a sync queued, for the gate: its request id, and whether this run made any workflow. */
export function queuedSync(plan: Pick<SyncPlan, 'runHash'>, applied: AppliedSync): QueuedChange {
  const made = [applied.joiners, applied.movers, applied.offboarding].some((workflow) => workflow?.created === true);
  return { id: syncRequestIdOf(plan), created: made || applied.undos.length > 0 || applied.transfers.length > 0 };
}

/** Who asks for a sync, on which target, with what kept for its approval. */
export interface SyncRequester {
  target: string;
  sim: boolean;
  input: SyncInput;
  requestedBy: Actor;
  reason?: string | undefined;
}

/** A sync run as the approvals gate takes it: one definition for the CLI, schedules, the control API and the dashboard. */
export function syncChangeRequest(plan: SyncPlan, requester: SyncRequester): ChangeRequest {
  return {
    kind: 'sync',
    id: syncRequestIdOf(plan),
    subject: `${plan.export.path} (sync run ${plan.runId})`,
    target: requester.target,
    sim: requester.sim,
    plan: fingerprintOfSync(plan),
    guardrails: plan.guardrails.reasons,
    input: requester.input,
    requestedBy: requester.requestedBy,
    reason: requester.reason,
  };
}

/** A sync through the gate: applied now (what it queued), or waiting for approval as its request. */
export async function syncThroughGate(gate: Pick<ApprovalGate, 'submit'>, plan: SyncPlan, requester: SyncRequester, apply: () => Promise<AppliedSync>): Promise<{ applied: AppliedSync } | { awaitingApproval: string; created: boolean }> {
  let applied: AppliedSync | undefined;
  const result = await gate.submit(syncChangeRequest(plan, requester), async () => queuedSync(plan, (applied = await apply())));
  if (result.status === 'awaiting-approval') return { awaitingApproval: result.request.id, created: result.created };
  return { applied: applied ?? (await apply()) };
}

export interface SyncPlanning extends Omit<PrepareSyncOptions, 'exportPath' | 'exportContent' | 'policyPath'> {
  /** Reads the service's clock again before planning (the reference server's can be moved). */
  refreshClock?: () => Promise<void>;
  /**
   * Told what applying an approved sync queued (its workflows), so the process that approved it can run them to the
   * end as `sync --apply` does (`approve --wait`).
   */
  onApplied?: (applied: AppliedSync) => void;
}

/**
 * A sync (`seatflow sync --apply`, a sync schedule's run). Re-planned, it reads the kept export against live state
 * and the export last accepted now: an export accepted since (or a newer one) makes it refused or stale, and a broken
 * export is applied only if its requester confirmed it.
 */
export function createSyncKind(planning: SyncPlanning): ChangeKindHandler {
  return {
    kind: 'sync',
    async replan(raw) {
      const input = syncInputSchema.parse(raw);
      await planning.refreshClock?.();
      const prepared = await prepareSync({ api: planning.api, offboarding: planning.offboarding, config: planning.config, target: planning.target, now: planning.now, exportPath: input.exportPath, exportContent: { bytes: Buffer.from(input.contentBase64, 'base64'), modifiedAt: input.modifiedAt }, policyPath: input.policyPath });
      if (prepared.kind === 'same-export') throw new UsageError(`the HR export ${input.exportPath} was accepted since (run ${prepared.previous.runId}, ${prepared.previous.acceptedAt}): there is nothing to approve`);
      const { plan } = prepared;
      const held = await heldReasons(plan, { acceptMissing: input.acceptMissing, confirmGuardrails: () => Promise.resolve(true) });
      if (held.length > 0) throw new UsageError(`the sync ${plan.runId} would change nothing now: ${held.join('; ')}`);
      return {
        plan: fingerprintOfSync(plan),
        queue: async () => {
          const applied = await prepared.apply();
          planning.onApplied?.(applied);
          return queuedSync(plan, applied);
        },
      };
    },
  };
}
