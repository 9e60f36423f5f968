import { z } from 'zod';

/**
 * How a row ended. Every row of a batch gets exactly one. `unknown`: an attempt may have applied and even the later
 * confirm could not read the service, so nobody knows; `seatflow retry` confirms such rows first.
 */
export const OUTCOMES = ['succeeded', 'unchanged', 'skipped', 'failed', 'unknown', 'cancelled'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The durable record of one row's end, as stored in Redis and written to reports. `category` is the client's error
 * category for service errors, or the pre-flight's: `Refused`, `NotFound`, `Conflict`, `Invalid`.
 */
export const rowOutcomeSchema = z.object({
  batchId: z.string(),
  row: z.number().int(),
  line: z.number().int(),
  action: z.string(),
  outcome: z.enum(OUTCOMES),
  email: z.string().optional(),
  userId: z.number().optional(),
  /** What a row that names no user is about, e.g. `sheet 2094857361029384 column "Status"`. */
  subject: z.string().optional(),
  category: z.string().optional(),
  status: z.number().optional(),
  errorCode: z.number().optional(),
  refId: z.string().optional(),
  rule: z.string().optional(),
  message: z.string().optional(),
  /** Attempts the service answered: what the retry budget (config `retry.maxAttempts`) counts. */
  attempts: z.number().int(),
  /**
   * Attempts that ended without an answer being recorded: the worker died (a crash, a kill, an OOM) or lost the row
   * mid-call. They spend none of the retry budget; the next attempt confirms before acting. Absent when none.
   */
  crashedAttempts: z.number().int().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string(),
  /**
   * The service's clock when the row began, past its due check: what its due instant is compared with (`finishedAt` is
   * on Redis's clock, which may differ from the service's). Absent on rows that never ran, and on older outcomes.
   */
  startedOnServiceClock: z.string().optional(),
  /**
   * True when an earlier attempt's result was unknown and the state was re-read before acting. A row found done then
   * ends `succeeded` (this batch did it; the answer was lost), with this flag.
   */
  confirmed: z.boolean().optional(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  sim: z.boolean().optional(),
});
export type RowOutcome = z.infer<typeof rowOutcomeSchema>;

export type OutcomeCounts = Record<Outcome, number>;

export function emptyCounts(): OutcomeCounts {
  return { succeeded: 0, unchanged: 0, skipped: 0, failed: 0, unknown: 0, cancelled: 0 };
}

/** Rows that have their outcome, whichever it is. */
export function rowsWithOutcome(counts: OutcomeCounts): number {
  return OUTCOMES.reduce((sum, outcome) => sum + counts[outcome], 0);
}
