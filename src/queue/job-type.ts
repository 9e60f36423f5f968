import type { Logger } from '../core/logger.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Action, ActionName } from '../manifest/action.js';
import type { ResolvedTarget } from '../plan/planned-row.js';
import type { ReportedByEvents } from './events-since-attempt.js';

/** What one job type receives for one row. */
export interface JobContext<A extends Action = Action> {
  api: SmartsheetApi;
  action: A;
  /** Ids the pre-flight resolved (user, transfer target, plan, alternate e-mail, column, ...). */
  target: ResolvedTarget;
  batchId: string;
  row: number;
  /**
   * True when an earlier attempt of this row may have changed state without seatflow seeing the answer
   * (timeout, reset, 5xx after sending, a worker killed mid-call). The queue then calls `confirm` before `run`.
   */
  previousAttemptUncertain: boolean;
  signal: AbortSignal;
  logger: Logger;
}

/** How a row ended when the job did not throw. */
export interface JobResult {
  outcome: 'succeeded' | 'unchanged';
  /** Small facts worth reporting, e.g. the id of a created column or discussion. */
  detail?: Record<string, string | number | boolean>;
  /** Why, for a row that ends `unchanged` (what was found already so). */
  message?: string;
}

/**
 * One module per action in jobs/. The queue machinery receives a registry of these and never imports jobs/.
 * `run` throws the client's ApiError on failure; the queue decides about retries.
 */
export interface JobType<A extends Action = Action> extends Reversible<A> {
  readonly action: A['action'];
  /** Does the action once. */
  run(context: JobContext<A>): Promise<JobResult>;
  /**
   * Re-reads the service and says whether the action's effect is already there (`done`), so that a call whose
   * first outcome is unknown is never repeated blindly. Must not change anything. `before` is what `readBefore` kept
   * just before the row's first change (JSON from Redis: parse it), when it kept anything: a job type that can tell
   * from it answers `changed-since` when what it reads is neither the change nor what the row found, so someone else
   * changed the same thing since, and sending the row again would undo their change.
   */
  confirm(context: JobContext<A>, before?: unknown): Promise<ConfirmRead>;
  /**
   * True for actions that create something (a discussion, a column, an alternate address, a user): repeating them
   * is not harmless, so a confirm after an attempt whose request got no answer waits until that request can no
   * longer land (the client's timeouts bound it) before it trusts what it reads.
   */
  readonly creates?: boolean;
  /**
   * True for updates the service records again when repeated with the values already there (a column, a profile, a
   * webhook): harmless to the state, yet a second change in the service's history and a second event for whoever
   * subscribes. A confirm after an attempt whose request got no answer waits as a create's does.
   */
  readonly repeatShows?: boolean;
  /**
   * For a change of the row's user that the service reports as a user event (docs/events.md): which events are the
   * change's own and which change the same attribute. After a lost answer, the queue reads them besides `confirm`: a
   * read cannot tell "never landed" from "landed and someone undid it", the events can (events-since-attempt.ts).
   * Undefined for a row whose events cannot be told apart (a seat change in a plan the row does not name).
   */
  reportedBy?(context: JobContext<A>): ReportedByEvents | undefined;
  /**
   * For creates the service lets happen twice: after a create that followed an uncertain attempt, lists this row's
   * objects and, when a late request made a second one, keeps the oldest and removes the others. Returns the facts
   * for the report (the id kept, the ids removed), or undefined when there was only one.
   */
  keepOne?(context: JobContext<A>): Promise<JobResult['detail']>;
}

export type JobRegistry = ReadonlyMap<ActionName, JobType>;

/** What a confirm read says: the change is there, it is not (and nothing else changed), or someone else changed it since. */
export type ConfirmRead = 'done' | 'not-done' | 'changed-since';

/**
 * The inverse of one row's change, for `seatflow revert`: the actions that put back the state the row found (planned
 * and run like any manifest's rows), or why there are none.
 */
export type RowInverse = { kind: 'actions'; actions: Action[]; notes?: string[] } | { kind: 'refused'; reason: string };

/** What a job type knows, after the fact, about a row it changed. */
export interface InverseFacts<A extends Action = Action> {
  action: A;
  target: ResolvedTarget;
  /** What `readBefore` returned just before the change (JSON from Redis: parse it); undefined when nothing was read. */
  before: unknown;
  /** The outcome's detail: ids the change made or learned (a created column's id, the plan of a seat change). */
  detail: Readonly<Record<string, string | number | boolean>> | undefined;
  /** When the change was made (the row's outcome), and now: some changes can be undone only for a while. */
  changedAtMs: number;
  nowMs: number;
  /** How long the service lets a deactivated user be reactivated (config offboarding.reactivationWindowDays). */
  reactivationWindowMs: number;
}

/**
 * What a job type says about undoing its rows (one place per action, beside `run` and `confirm`): what it reads just
 * before the change, and the inverse of the change from that.
 */
export interface Reversible<A extends Action = Action> {
  /**
   * Reads what `inverse` will need, just before the row's first change (the queue records it once per row). Must not
   * change anything. Absent when the row itself holds enough (an added user is removed by its e-mail).
   */
  readBefore?(context: JobContext<A>): Promise<unknown>;
  /**
   * Judges, from what `readBefore` just read before the row's first change, whether the change is already there
   * (someone made it since the plan): why, and the row ends `unchanged` without its call; undefined to make the call.
   * For changes the service answers the same whether or not they changed anything (a seat already held answers 200):
   * without it such a row would report `succeeded`, and its revert would undo someone else's change.
   */
  alreadyDone?(before: unknown, context: JobContext<A>): string | undefined;
  /**
   * The inverse of a row that ended `succeeded`. Pure. Every job type of jobs/registry.ts has one (its type says so);
   * optional here so that a job type built for a test needs none.
   */
  inverse?(facts: InverseFacts<A>): RowInverse;
}

/** A row's message when a read after a lost answer shows its change made: this batch made it. */
export const CONFIRMED_DONE = 'done by this batch (confirmed after a lost answer)';

/**
 * Whether a confirm after an attempt whose request got no answer must wait until that request can no longer land:
 * repeating the call would not be harmless (a create) or would show (an update recorded again).
 */
export function confirmsAfterSettle(jobType: Pick<JobType, 'creates' | 'repeatShows'>): boolean {
  return jobType.creates === true || jobType.repeatShows === true;
}
