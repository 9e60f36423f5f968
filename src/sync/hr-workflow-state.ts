import { z } from 'zod';
import { POLICY_SEATS } from '../reconcile/policy.js';
import { personBaseSchema, workflowBaseShape } from '../workflow/workflow-shapes.js';

/**
 * The records and people of the joiners and movers workflows a sync submits (joiner-lifecycle.ts,
 * mover-lifecycle.ts): one workflow per lifecycle per sync run, its people each with one step, due on their date.
 */

/** A joiners or movers workflow's record: the fields of every workflow, the sync run, the plan and the step batches. */
export const hrRecordSchema = z.object({
  ...workflowBaseShape,
  lifecycle: z.string(),
  /** The sync run that submitted it (`<policy key>@<export sha>`). */
  runId: z.string(),
  policy: z.string(),
  /** The plan whose seat is given; absent: the user's only plan. */
  planId: z.coerce.number().optional(),
  /** Step batches (the ordinary batch store), one outcome per person in each: joiners add, reactivate and seat; movers seat. */
  addBatch: z.string().optional(),
  reactivateBatch: z.string().optional(),
  seatBatch: z.string(),
  /** A joiner's add sends the service's welcome e-mail (the policy's joiners.sendEmail). */
  sendEmail: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
export type HrRecord = z.infer<typeof hrRecordSchema>;

const dateSourceSchema = z.object({ written: z.string(), column: z.string(), readAs: z.string() });
const undoSchema = z.object({ by: z.string(), at: z.string(), from: z.string() }).optional();

/** What every sync person has: who in the export, when, which seat by which rule, and why. */
const hrPersonShape = {
  ...personBaseSchema.shape,
  employeeId: z.string(),
  /** When the step is due (epoch ms, service clock): the start date, or when a change takes effect. */
  dueAt: z.number(),
  /** The date as the export wrote it and how it was read; absent: due at the sync. */
  dueDate: dateSourceSchema.optional(),
  /** The seat the policy gives, and the rule that gave it. */
  seat: z.enum(POLICY_SEATS),
  seatRule: z.string(),
  /** What in the export made this person a joiner or a mover (`new in the export`, `department Sales → Engineering`). */
  cause: z.string(),
  undo: undoSchema,
};

/**
 * scheduled: waiting for the start date (undo can stop it); adding / reactivating: the add or reactivate row is queued;
 * seating: in the organization, the seat the policy gives is being set. The rest are ends.
 */
export const JOINER_PHASES = ['scheduled', 'adding', 'reactivating', 'seating', 'joined', 'skipped', 'failed', 'undone', 'refused'] as const;
export const JOINER_OPEN: ReadonlySet<string> = new Set(['scheduled', 'adding', 'reactivating', 'seating']);

export const joinerStateSchema = z.object({
  ...hrPersonShape,
  phase: z.enum(JOINER_PHASES),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  /** What the step found at the start date: not in the organization (add), deactivated (reactivate), a member already. */
  how: z.enum(['add', 'reactivate', 'member']).optional(),
});
export type JoinerState = z.infer<typeof joinerStateSchema>;

/** scheduled: waiting for the effective date (undo can stop it); moving: the seat row is queued. The rest are ends. */
export const MOVER_PHASES = ['scheduled', 'moving', 'moved', 'skipped', 'failed', 'undone', 'refused'] as const;
export const MOVER_OPEN: ReadonlySet<string> = new Set(['scheduled', 'moving']);

export const moverStateSchema = z.object({
  ...hrPersonShape,
  phase: z.enum(MOVER_PHASES),
  /** The seat held when the plan was made. */
  seatBefore: z.string().optional(),
});
export type MoverState = z.infer<typeof moverStateSchema>;
