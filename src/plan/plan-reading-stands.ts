/**
 * How long a plan's bulk reading of a person stands in for a read at their step: about as long as a row may wait in a
 * rate-limited batch between a read at its step and its call (a 5,000-row batch at 300 calls a minute runs for 17
 * minutes), so the plan's reading is no staler than a read at the step was.
 */
export const PLAN_READING_STANDS_MS = 15 * 60_000;

/** How far a reading's time may be ahead of now and still stand: two clocks that should agree, a little apart. */
const READING_AHEAD_TOLERANCE_MS = 60_000;

/**
 * Whether a reading made at `readAtMs` may be used by a step due at `dueAt` that runs at `nowMs` instead of reading
 * again: only if the step was already due when the reading was made (nothing the reading saw predates the instant the
 * step acts for) and the step runs within PLAN_READING_STANDS_MS of it. A reading of unknown time (NaN) never stands,
 * nor one stamped more than a minute after now (its clock was not the service's: it would stand for too long).
 */
export function planReadingStands(readAtMs: number, dueAt: number, nowMs: number): boolean {
  return dueAt <= readAtMs && nowMs - readAtMs <= PLAN_READING_STANDS_MS && readAtMs - nowMs <= READING_AHEAD_TOLERANCE_MS;
}
