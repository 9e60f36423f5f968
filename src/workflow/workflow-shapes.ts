import { z } from 'zod';

/**
 * The shapes every lifecycle's records and people share (a lifecycle's own schemas add to them): what the stores
 * (record-store.ts, person-store.ts) keep and the engine (lifecycle.ts, workflow-engine.ts) reads.
 */

/** One thing that happened to a person, for status and the report. */
export const personStepSchema = z.object({ step: z.string(), at: z.string(), outcome: z.string(), message: z.string().optional() });
export type PersonStep = z.infer<typeof personStepSchema>;

/** What the state of every person of every lifecycle has (a lifecycle's own schema adds to it). */
export const personBaseSchema = z.object({
  row: z.number().int(),
  line: z.number().int(),
  email: z.string(),
  userId: z.number().optional(),
  phase: z.string(),
  /** Bumped on every write: a write only lands on the version it read (see person-store.ts). */
  version: z.number().int(),
  reason: z.string().optional(),
  rule: z.string().optional(),
  notes: z.array(z.string()),
  steps: z.array(personStepSchema),
});
export type PersonBase = z.infer<typeof personBaseSchema>;

export function personStepOf(step: string, outcome: string, at: Date, message?: string): PersonStep {
  return { step, at: at.toISOString(), outcome, ...(message === undefined ? {} : { message }) };
}

/** submitting: being set up; open: some person has a step to come; finished: every person reached an end. */
export const WORKFLOW_STATES = ['submitting', 'open', 'finished'] as const;

/** The lifecycle of records written before lifecycles had names: they are all offboardings. */
export const DEFAULT_LIFECYCLE = 'offboarding';

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** The fields of every workflow's record (a Redis hash), whatever its lifecycle. */
export const workflowBaseShape = {
  id: z.string(),
  state: z.enum(WORKFLOW_STATES),
  source: z.string(),
  sha256: z.string(),
  createdAt: z.string(),
  target: z.string(),
  sim: flag,
  timeZone: z.string().optional(),
  total: z.coerce.number(),
  /**
   * 'true' when the rows of people with a step to come are kept in a set (workflowOpen), so that closing a person
   * costs one command; offboardings submitted before it are closed by reading every leaver.
   */
  tracksOpen: flag.optional(),
};
/** `lifecycle` is absent on offboardings (their records predate it), present on every other lifecycle's. */
export const workflowBaseSchema = z.object({ ...workflowBaseShape, lifecycle: z.string().optional() });
export type WorkflowBase = z.infer<typeof workflowBaseSchema>;

/** A change of a person's user made outside seatflow (an admin, an identity provider, the service), as told by an event. */
export interface ChangeElsewhere {
  /** `user.reactivated`, `user.removed`, `user.seatType.updated`, … */
  event: string;
  /** When the service says it happened (ISO). */
  at: string;
  /** Who made it, when the service says. */
  by?: string;
  /** For a seat change: the seat held now. */
  seatType?: string;
}

/** "user.reactivated outside seatflow by admin@… at …": the change as the person's note and reasons say it. */
export function describeChangeElsewhere(change: ChangeElsewhere): string {
  return `${change.event}${change.seatType === undefined ? '' : ` (${change.seatType})`} outside seatflow${change.by === undefined ? '' : ` by ${change.by}`} at ${change.at}`;
}
