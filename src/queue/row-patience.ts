/**
 * How long a row waits, and how often it tries, in each case the row processor meets: one place, so that what reads
 * the queue (`status`'s far-parked rows) knows the longest wait seatflow sets.
 */

/** Rows of a stopped batch wait as delayed jobs this long, or until `retry` promotes them. */
export const PARKED_MS = 30 * 24 * 3600 * 1000;

/**
 * A row handed out before its due instant waits this long at most before it looks again: the service's clock may
 * move (a corrected machine clock, a rehearsal moving the reference server's), so it is never parked for the whole
 * wait on this machine's reckoning.
 */
export const NOT_DUE_RECHECK_MS = 60_000;

/**
 * Confirm-only reads a row gets once its retry budget ran out while it may have applied, when the service refuses a
 * read for good (not a passing error): `retry.maxDelayMs` apart.
 */
export const LATE_CONFIRM_TRIES = 3;

/**
 * ...and when the service cannot answer (unavailable, timed out): further apart each time, from `retry.maxDelayMs`
 * up to 30 times it, about three and a half hours in all at the default; a row a step waits on reads on (readsAgain).
 * An outage of some minutes must not end a row `unknown` and leave a lifecycle waiting on an operator's `retry` (soak
 * seed 6689: a rehire's reactivation, three reads a second apart, all in one 503 storm); a read costs one call.
 */
export const LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE = 12;

/**
 * Whether a row reads again after its late confirm-only read number `tries` failed. `passing`: the service could not
 * answer (5xx, timeout), rather than refused the read for good. `awaited`: a lifecycle's step waits on the row (it has
 * a due instant). Such a row reads on, at the widest gap, for as long as the service cannot answer: nobody watches a
 * step, and a row ended `unknown` would leave its person waiting on an operator's `retry` until someone noticed (soak
 * seed 7024: a leaver's deactivation, its twelve reads all in one long 5xx storm, the leaver `deactivating` for good).
 */
export function readsAgain(tries: number, passing: boolean, awaited: boolean): boolean {
  if (!passing) return tries < LATE_CONFIRM_TRIES;
  return awaited || tries < LATE_CONFIRM_TRIES_WHILE_UNAVAILABLE;
}

/** The late confirm-only reads grow apart up to this many times `retry.maxDelayMs`. */
const LATE_CONFIRM_GAP_FACTOR = 30;

/** The wait before confirm-only read `tries` + 1 of a row whose reads the service could not answer. */
export function lateConfirmDelayMs(tries: number, maxDelayMs: number): number {
  return maxDelayMs * Math.min(2 ** Math.max(0, tries - 1), LATE_CONFIRM_GAP_FACTOR);
}

/**
 * The longest seatflow parks a row of a batch that is not stopped, but for a request that may still land: the widest
 * gap between late confirm-only reads. A row parked further ahead has a wrong date (far-parked rows in `status`).
 */
export function longestParkMs(maxDelayMs: number): number {
  return Math.max(NOT_DUE_RECHECK_MS, maxDelayMs * LATE_CONFIRM_GAP_FACTOR);
}

/**
 * Attempts of one row that may end without an answer (their worker died or lost the row mid-call) before the row is
 * no longer tried: such attempts spend none of the retry budget, which counts the service's answers only, so a row
 * that itself kills its worker would otherwise take the fleet down forever. It ends `unknown` (one of them may have
 * applied), for `seatflow retry` once the cause is found.
 */
export const MAX_CRASHES_PER_ROW = 10;

/** How soon a row whose in-flight marker reached no replica tries again (a failover under way settles in seconds). */
export const WAIT_FOR_REPLICA_MS = 1000;

/** A row waiting for the service's events after a lost answer looks for them this often (Redis only, no call). */
export const EVENT_RECHECK_MS = 1000;
