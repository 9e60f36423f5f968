/**
 * A change the service's mutation log can show: its operation (`deactivateUser`, `addUser`, `upgradeUser`, …) and what
 * it is about — `user:<id>`, or `email:<address>` for a user the change creates.
 */
export interface ChangeKey {
  operation: string;
  subject: string;
}

/**
 * expected: promised, to happen once at or after `notBefore`, or to end with an outcome that says why not.
 * optional: may happen once at or after `notBefore`, or not (a cancelled batch's row, an undo's reactivation).
 * awaiting-approval: shown, but waiting for a second person: it must not happen unless approved.
 * withdrawn: taken back (rejected, undone before its step, the step cancelled): it must not happen after `since`.
 */
export type PromiseState = 'expected' | 'optional' | 'awaiting-approval' | 'withdrawn';

/**
 * Where seatflow reports the promise's end: a row of a batch, or of one of a workflow's step batches (a joiner's
 * add or reactivate: whichever the step chose).
 */
export interface OutcomeRef {
  batchIds: string[];
  /** The row; absent when it is known only at the end, by the person's e-mail (a sync's step batches). */
  row?: number;
  email?: string;
}

/**
 * One change seatflow promised, as the plan it showed said it: what, to whom, not before when. The oracle holds the
 * mutation log against these and nothing else.
 */
export interface ChangePromise {
  /** Unique: `<batch or workflow id>:<row or e-mail>:<step>`. */
  key: string;
  /** The scenario event that made the promise (its seq), and what it was, for traces. */
  eventSeq: number;
  label: string;
  /** The changes that keep it (any one of them, once). */
  changes: ChangeKey[];
  /** Service time (epoch ms) before which nothing of it may happen. */
  notBefore: number;
  state: PromiseState;
  /** Service time the state was set. */
  since: number;
  outcome?: OutcomeRef;
  /** What happened to the promise after it was made (approved, undone, run now…), with service times. */
  history: string[];
}

export const userKey = (id: number): string => `user:${id}`;
export const emailKey = (email: string): string => `email:${email.toLowerCase()}`;
