import type { ChangeKind } from '../../core/governance-config.js';
import type { AuditLog } from '../audit/audit-log.js';
import { GovernanceRefusal } from '../governance-refusal.js';
import type { Notifier } from '../notifications/notification-event.js';
import { NEEDED_ROLE, requireRole, samePerson, type Actor } from '../operators/actor.js';
import { approvalReasons, type ApprovalPolicy } from './approval-policy.js';
import type { ApprovalRecord } from './approval-record.js';
import type { ApprovalStore } from './approval-store.js';
import type { ChangeKinds, QueuedChange } from './change-kind.js';
import { diffPlans, formatDiff, planHashOf, type PlanFingerprint } from './plan-fingerprint.js';

/** A change as a submit path hands it to the gate, after its plan and the requester's guardrail confirmation. */
export interface ChangeRequest {
  kind: ChangeKind;
  /** The id the change will have once queued (batch or offboarding id). */
  id: string;
  subject: string;
  target: string;
  sim: boolean;
  plan: PlanFingerprint;
  /** Guardrail limits the plan crosses, which the requester confirmed. */
  guardrails: readonly string[];
  /** The policy itself asks for approval (e.g. a reconciliation policy's requireApproval), in words. */
  markedBy?: string | undefined;
  /** What the kind re-plans from (JSON): the manifest's bytes and options, the policy and run, the batch to revert. */
  input: unknown;
  requestedBy: Actor;
  reason?: string | undefined;
}

export type GateResult =
  | { status: 'queued'; queued: QueuedChange; request?: ApprovalRecord }
  | { status: 'awaiting-approval'; request: ApprovalRecord; created: boolean };

export type ApproveResult =
  | { status: 'queued'; queued: QueuedChange; request: ApprovalRecord }
  | { status: 'replanned'; request: ApprovalRecord; difference: string[] };

export interface ApprovalGate {
  /**
   * The one call every submit path makes between its plan and its queue: queues at once (`queue`) when no approval is
   * needed, else records the request as awaiting approval (and says so to whoever subscribed to `approval.needed`).
   * The same change asked for again finds its request.
   */
  submit(request: ChangeRequest, queue: () => Promise<QueuedChange>): Promise<GateResult>;
  /**
   * Approves what `planHash` (the plan the approver saw; default the one shown now) describes, re-plans against live
   * state and queues the new plan only if its hash is the approved one; otherwise the request waits again, with the
   * difference. Never by the requester.
   */
  approve(id: string, by: Actor, options: { planHash?: string | undefined; reason?: string | undefined }, kinds: ChangeKinds): Promise<ApproveResult>;
  /** Refuses a waiting request (an approver), or withdraws it (its requester). A reason is required. */
  reject(id: string, by: Actor, reason: string): Promise<ApprovalRecord>;
  get(id: string): Promise<ApprovalRecord | undefined>;
}

export interface ApprovalGateOptions {
  store: ApprovalStore;
  audit: AuditLog;
  notifier: Notifier;
  policy: ApprovalPolicy;
  now?: () => Date;
}

export function createApprovalGate(options: ApprovalGateOptions): ApprovalGate {
  const { store, audit, notifier } = options;
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  async function requireRequest(id: string): Promise<ApprovalRecord> {
    const record = await store.get(id);
    if (record === undefined) throw new GovernanceRefusal('not-found', `no change request ${id}`, 'List what waits with: seatflow approve --list (or GET /v1/approvals).');
    return record;
  }

  async function announce(record: ApprovalRecord, why: string): Promise<void> {
    await notifier.notify({
      id: `approval.needed:${record.id}:${record.planHash.slice(0, 16)}`,
      type: 'approval.needed',
      title: `Approval needed: ${record.kind} ${record.subject} (${record.id})`,
      text: [
        `${record.requestedBy.name} asked for ${record.changes} change${record.changes === 1 ? '' : 's'} (${record.destructive} destructive)${record.reason === undefined ? '' : `, reason: ${record.reason}`}.`,
        why,
        `Approve with: seatflow approve ${record.id}   or reject: seatflow reject ${record.id} --reason "…"`,
      ].join('\n'),
      path: `/approvals/${record.id}`,
      target: record.target,
      sim: record.sim,
      data: { id: record.id, kind: record.kind, subject: record.subject, requestedBy: record.requestedBy.name, planHash: record.planHash, changes: record.changes, destructive: record.destructive, summary: record.summary },
    });
  }

  /** Queues a request's fresh plan once it proved to be the approved one, and records that it ran as approved. */
  async function queueApproved(record: ApprovalRecord, by: Actor, queue: () => Promise<QueuedChange>): Promise<ApproveResult> {
    const queued = await queue();
    const at = now();
    const done = (await store.replace(record, { state: 'queued', resultId: queued.id, history: [...record.history, { event: 'queued', by: by.name, at, planHash: record.planHash, resultId: queued.id }] })) ?? record;
    await audit.append({ event: 'change.queued', actor: by.name, subject: record.id, data: { kind: record.kind, planHash: record.planHash, approvedBy: record.approvedBy ?? null, requestedBy: record.requestedBy.name, resultId: queued.id, created: queued.created } });
    return { status: 'queued', queued, request: done };
  }

  return {
    get: (id) => store.get(id),

    async submit(request, queue) {
      requireRole(request.requestedBy, NEEDED_ROLE.request, 'request changes');
      const existing = await store.get(request.id);
      if (existing !== undefined) {
        if (existing.state === 'awaiting-approval' || existing.state === 'approved') return { status: 'awaiting-approval', request: existing, created: false };
        if (existing.state === 'rejected') {
          throw new GovernanceRefusal(
            'conflict',
            `${existing.subject} was asked for before as ${existing.id} and rejected by ${existing.rejectedBy ?? '?'} (${existing.rejectionReason ?? 'no reason'}): nothing was queued`,
            'Change what you ask for, or ask for it anew (--again), which makes a new request.',
          );
        }
        // Approved and queued before: the kind's queue finds its batch (same id) and queues nothing twice.
        return { status: 'queued', queued: await queue(), request: existing };
      }
      const planHash = planHashOf(request.kind, request.target, request.plan.lines);
      const why = approvalReasons(request.kind, request.plan, options.policy, request.markedBy);
      const base = {
        kind: request.kind,
        planHash,
        changes: request.plan.changes,
        destructive: request.plan.destructive,
        summary: request.plan.summary,
        guardrails: [...request.guardrails],
        requestedBy: request.requestedBy.name,
      };
      if (why.length === 0) {
        await audit.append({ event: 'change.requested', actor: request.requestedBy.name, subject: request.id, reason: request.reason, data: { ...base, subjectName: request.subject, approval: 'not required' } });
        const queued = await queue();
        await audit.append({ event: 'change.queued', actor: request.requestedBy.name, subject: request.id, data: { kind: request.kind, planHash, resultId: queued.id, created: queued.created } });
        return { status: 'queued', queued };
      }
      const at = now();
      const record: ApprovalRecord = {
        id: request.id,
        kind: request.kind,
        subject: request.subject,
        target: request.target,
        sim: request.sim,
        state: 'awaiting-approval',
        version: 0,
        requestedBy: request.requestedBy,
        requestedAt: at,
        ...(request.reason === undefined || request.reason === '' ? {} : { reason: request.reason }),
        planHash,
        summary: request.plan.summary,
        changes: request.plan.changes,
        destructive: request.plan.destructive,
        callsToApply: request.plan.calls,
        why,
        guardrails: [...request.guardrails],
        history: [{ event: 'requested', by: request.requestedBy.name, at, planHash, ...(request.reason === undefined || request.reason === '' ? {} : { reason: request.reason }) }],
      };
      const created = await store.create(record, [...request.plan.lines], request.input);
      const stored = (await store.get(request.id)) ?? record;
      if (created) {
        await audit.append({ event: 'change.requested', actor: request.requestedBy.name, subject: request.id, reason: request.reason, data: { ...base, subjectName: request.subject, approval: 'required', why } });
        await announce(stored, `Why it needs approval: ${why.join('; ')}.`);
      }
      return { status: 'awaiting-approval', request: stored, created };
    },

    async approve(id, by, approveOptions, kinds) {
      requireRole(by, NEEDED_ROLE.approve, 'approve changes');
      let record = await requireRequest(id);
      if (samePerson(by.name, record.requestedBy.name)) {
        throw new GovernanceRefusal('forbidden', `${by.name} asked for ${id} and cannot approve it: a change needs a second person`, 'Ask another approver (seatflow approve, the dashboard or POST /v1/approvals/:id/approve).');
      }
      const handler = kinds.get(record.kind);
      if (handler === undefined) throw new GovernanceRefusal('conflict', `this process cannot re-plan a ${record.kind}`, 'Approve it where that kind of change is planned (the seatflow CLI or seatflow serve of its target).');
      if (record.state === 'awaiting-approval') {
        if (approveOptions.planHash !== undefined && approveOptions.planHash !== record.planHash) {
          throw new GovernanceRefusal('conflict', `the plan of ${id} changed since you saw it (you saw ${approveOptions.planHash.slice(0, 12)}…, it is now ${record.planHash.slice(0, 12)}…): nothing was approved`, 'Look at the plan again, then approve what it says now.');
        }
        const at = now();
        const approved = await store.replace(record, {
          state: 'approved',
          approvedBy: by.name,
          approvedAt: at,
          approvedHash: record.planHash,
          history: [...record.history, { event: 'approved', by: by.name, at, planHash: record.planHash, ...(approveOptions.reason === undefined ? {} : { reason: approveOptions.reason }) }],
        });
        if (approved === undefined) throw new GovernanceRefusal('conflict', `${id} changed while you approved it (someone else decided or it was re-planned): nothing was approved`, 'Look at it again.');
        record = approved;
        await audit.append({ event: 'change.approved', actor: by.name, subject: id, reason: approveOptions.reason, data: { kind: record.kind, planHash: record.planHash, requestedBy: record.requestedBy.name } });
      } else if (record.state === 'approved') {
        // Approved, but the process that re-planned it stopped before queuing: any approver but the requester resumes.
      } else {
        throw new GovernanceRefusal('conflict', `${id} is ${record.state}${record.state === 'rejected' ? ` (by ${record.rejectedBy ?? '?'}: ${record.rejectionReason ?? ''})` : record.resultId === undefined ? '' : ` as ${record.resultId}`}: there is nothing to approve`);
      }

      // Never run what was not approved: plan again now, and queue only a plan with the approved hash.
      const replanned = await handler.replan(await store.input(id));
      const freshHash = planHashOf(record.kind, record.target, replanned.plan.lines);
      const approvedHash = record.approvedHash ?? record.planHash;
      if (freshHash === approvedHash) return queueApproved(record, by, () => replanned.queue());

      const freshLines = [...replanned.plan.lines];
      const difference = formatDiff(diffPlans(await store.lines(id), freshLines));
      const at = now();
      await store.setLines(id, freshLines);
      const waiting = await store.replace(record, {
        state: 'awaiting-approval',
        planHash: freshHash,
        summary: replanned.plan.summary,
        changes: replanned.plan.changes,
        destructive: replanned.plan.destructive,
        callsToApply: replanned.plan.calls,
        staleDifference: difference,
        approvedBy: undefined,
        approvedAt: undefined,
        approvedHash: undefined,
        history: [...record.history, { event: 'replanned', by: by.name, at, planHash: freshHash, previousHash: approvedHash, difference }],
      });
      if (waiting === undefined) throw new GovernanceRefusal('conflict', `${id} changed while it was re-planned: look at it again`);
      await audit.append({ event: 'change.replanned', actor: by.name, subject: id, data: { kind: record.kind, approvedHash, planHash: freshHash, difference } });
      await announce(waiting, `The approved plan went stale before it ran (live state changed); it waits for approval again. What changed:\n${difference.join('\n')}`);
      return { status: 'replanned', request: waiting, difference };
    },

    async reject(id, by, reason) {
      const record = await requireRequest(id);
      const withdrawing = samePerson(by.name, record.requestedBy.name);
      requireRole(by, withdrawing ? NEEDED_ROLE.request : NEEDED_ROLE.approve, 'reject changes');
      if (reason.trim() === '') throw new GovernanceRefusal('conflict', 'a rejection needs a reason', 'Give it with --reason "…".');
      if (record.state !== 'awaiting-approval') throw new GovernanceRefusal('conflict', `${id} is ${record.state}: only a waiting request can be rejected`);
      const at = now();
      const rejected = await store.replace(record, {
        state: 'rejected',
        rejectedBy: by.name,
        rejectedAt: at,
        rejectionReason: reason,
        history: [...record.history, { event: 'rejected', by: by.name, at, planHash: record.planHash, reason }],
      });
      if (rejected === undefined) throw new GovernanceRefusal('conflict', `${id} changed while you rejected it: look at it again`);
      await audit.append({ event: 'change.rejected', actor: by.name, subject: id, reason, data: { kind: record.kind, planHash: record.planHash, requestedBy: record.requestedBy.name, withdrawn: withdrawing } });
      return rejected;
    },
  };
}
