import { z } from 'zod';

/**
 * Where one leaver's offboarding stands. scheduled: waiting for the leave date; deactivating: the deactivate row is
 * queued; holding: deactivated, the removal waits for the hold to end; removing: re-checked, the remove row is queued
 * (undo is no longer possible from here on). The rest are ends.
 */
export const LEAVER_PHASES = ['scheduled', 'deactivating', 'holding', 'removing', 'removed', 'undone', 'skipped', 'failed', 'refused'] as const;
export type LeaverPhase = (typeof LEAVER_PHASES)[number];

export const OPEN_PHASES: ReadonlySet<LeaverPhase> = new Set(['scheduled', 'deactivating', 'holding', 'removing']);
/** Phases from which `undo` can still act. */
export const UNDOABLE_PHASES: ReadonlySet<LeaverPhase> = new Set(['scheduled', 'holding']);

const userRefSchema = z.object({ email: z.string(), userId: z.number().optional() });

/**
 * What the user looked like just before seatflow deactivated them, as far as the service tells: as the plan read them
 * when the deactivation was due at once, else read again on the leave date (capture-state-before.ts).
 */
export const stateBeforeSchema = z.object({
  recordedAt: z.string(),
  status: z.string().optional(),
  admin: z.boolean().optional(),
  groupAdmin: z.boolean().optional(),
  licensedSheetCreator: z.boolean().optional(),
  resourceViewer: z.boolean().optional(),
  /** `isInternal` as the plan listing said it (absent in states recorded before it was kept): reactivation gives MEMBER only in such plans. */
  seats: z.array(z.object({ planId: z.number(), planName: z.string().optional(), seatType: z.string().optional(), isInternal: z.boolean().optional() })),
  /** Groups the user owns; absent when the service did not say (it documents `include=groups` for /users/me only). */
  groupsOwned: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  /** Absent when the service did not tell (it reports -1 since the field's sunset). */
  sheetCount: z.number().optional(),
  /** Recorded by offboardings before issue 30; no longer read (nothing used them). */
  alternateEmails: z.array(z.string()).optional(),
});
export type StateBefore = z.infer<typeof stateBeforeSchema>;

/** One thing that happened to a leaver, for status and the report. */
export const leaverStepSchema = z.object({
  step: z.enum(['plan', 'state-recorded', 'deactivate', 'hold', 'recheck', 'remove', 'undo', 'reactivate', 'restore', 'retry', 'run-now', 'transfer-target']),
  at: z.string(),
  outcome: z.string(),
  message: z.string().optional(),
});
export type LeaverStep = z.infer<typeof leaverStepSchema>;

export const leaverStateSchema = z.object({
  row: z.number().int(),
  line: z.number().int(),
  email: z.string(),
  userId: z.number().optional(),
  /** When access is cut (epoch ms): the leave date, or the submission time when absent or past. */
  leaveAt: z.number(),
  /** The transfer target the plan chose (the row's, or --transfer-to). */
  transferTo: userRefSchema.optional(),
  /** The transfer target the removal used, after the re-check. */
  transferUsed: userRefSchema.optional(),
  /** The groups the user owned at the re-check before the removal (what went to the target); absent: not listed. */
  groupsAtRemoval: z.array(z.object({ id: z.number(), name: z.string() })).optional(),
  phase: z.enum(LEAVER_PHASES),
  /** Bumped on every write: a write only lands on the version it read (see workflow-store.ts). */
  version: z.number().int(),
  reason: z.string().optional(),
  rule: z.string().optional(),
  /** Notes of the plan (e.g. a fallback transfer target, group ownership unknown). */
  notes: z.array(z.string()),
  stateBefore: stateBeforeSchema.optional(),
  /** When the deactivate row was queued (before the call): the hold counts from here, so it never outlasts the window. */
  deactivateRequestedAt: z.number().optional(),
  holdUntil: z.number().optional(),
  undo: z.object({ by: z.string(), at: z.string(), from: z.string() }).optional(),
  steps: z.array(leaverStepSchema),
});
export type LeaverState = z.infer<typeof leaverStateSchema>;

export function stepOf(step: LeaverStep['step'], outcome: string, at: Date, message?: string): LeaverStep {
  return { step, at: at.toISOString(), outcome, ...(message === undefined ? {} : { message }) };
}
