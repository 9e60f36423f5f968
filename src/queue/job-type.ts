import type { Logger } from '../core/logger.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Action, ActionName } from '../manifest/action.js';
import type { ResolvedTarget } from '../plan/planned-row.js';

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
}

/**
 * One module per action in jobs/. The queue machinery receives a registry of these and never imports jobs/.
 * `run` throws the client's ApiError on failure; the queue decides about retries.
 */
export interface JobType<A extends Action = Action> {
  readonly action: A['action'];
  /** Does the action once. */
  run(context: JobContext<A>): Promise<JobResult>;
  /**
   * Re-reads the service and says whether the action's effect is already there (`done`), so that a call whose
   * first outcome is unknown is never repeated blindly. Must not change anything.
   */
  confirm(context: JobContext<A>): Promise<'done' | 'not-done'>;
  /**
   * True for actions that create something (a discussion, a column, an alternate address, a user): repeating them
   * is not harmless, so a confirm after an attempt whose request got no answer waits until that request can no
   * longer land (the client's timeouts bound it) before it trusts what it reads.
   */
  readonly creates?: boolean;
  /**
   * For creates the service lets happen twice: after a create that followed an uncertain attempt, lists this row's
   * objects and, when a late request made a second one, keeps the oldest and removes the others. Returns the facts
   * for the report (the id kept, the ids removed), or undefined when there was only one.
   */
  keepOne?(context: JobContext<A>): Promise<JobResult['detail']>;
}

export type JobRegistry = ReadonlyMap<ActionName, JobType>;
