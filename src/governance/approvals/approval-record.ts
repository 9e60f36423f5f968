import { z } from 'zod';
import { CHANGE_KINDS, OPERATOR_ROLES } from '../../core/governance-config.js';

/**
 * A change request: a batch, offboarding, reconciliation run, sync or revert that waits for a second person after its
 * plan, before anything is queued. Its id is the id the change will have once queued (a batch's `b…`, an
 * offboarding's `o…`), so `seatflow status ID` and `seatflow approve ID` name the same thing.
 *
 * awaiting-approval → approved (re-planning) → queued; awaiting-approval → rejected. An approved plan gone stale goes
 * back to awaiting-approval with the new plan and the difference.
 */
export const APPROVAL_STATES = ['awaiting-approval', 'approved', 'queued', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

const actorSchema = z.object({ name: z.string(), role: z.enum(OPERATOR_ROLES), via: z.string() });

const historySchema = z.object({
  event: z.enum(['requested', 'approved', 'rejected', 'replanned', 'queued']),
  by: z.string(),
  at: z.string(),
  planHash: z.string(),
  reason: z.string().optional(),
  /** replanned: the hash that had been approved, and what changed, as lines a person reads. */
  previousHash: z.string().optional(),
  difference: z.array(z.string()).optional(),
  /** queued: the batch or offboarding id. */
  resultId: z.string().optional(),
});

export const approvalRecordSchema = z.object({
  id: z.string(),
  kind: z.enum(CHANGE_KINDS),
  /** What it is, for people: the manifest's name, `policy.json (run weekly@…)`, `revert of b…`. */
  subject: z.string(),
  /** The queue target (API base URL or `sim:…`): only a process of that target may re-plan and queue it. */
  target: z.string(),
  sim: z.boolean(),
  state: z.enum(APPROVAL_STATES),
  /** Compare-and-set counter: every change of the record increments it. */
  version: z.number().int(),
  requestedBy: actorSchema,
  requestedAt: z.string(),
  reason: z.string().optional(),
  /** The hash of the plan now shown (what an approval approves). */
  planHash: z.string(),
  summary: z.record(z.string(), z.number()),
  changes: z.number().int(),
  destructive: z.number().int(),
  /** The calls applying the plan makes (PlanFingerprint.calls); absent from requests stored before it was kept. */
  callsToApply: z.number().int().optional(),
  /** Why it needs approval (threshold crossed, kind or action listed, the policy marks it). */
  why: z.array(z.string()),
  /** Guardrail limits the plan crosses (the requester confirmed them). */
  guardrails: z.array(z.string()),
  /** The approval being acted on: who, when, the hash they saw. */
  approvedBy: z.string().optional(),
  approvedAt: z.string().optional(),
  approvedHash: z.string().optional(),
  rejectedBy: z.string().optional(),
  rejectedAt: z.string().optional(),
  rejectionReason: z.string().optional(),
  /** The batch or offboarding it became. */
  resultId: z.string().optional(),
  /** The last re-plan's difference from the approved plan, while it waits again. */
  staleDifference: z.array(z.string()).optional(),
  history: z.array(historySchema),
});
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;
export type ApprovalHistoryEntry = z.infer<typeof historySchema>;
