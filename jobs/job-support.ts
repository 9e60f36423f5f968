import { InvalidArgumentError, isApiError, ResourceNotFoundError } from '../src/client/api-error.js';
import { ERROR_CODES } from '../src/contract/index.js';
import type { CallOptions } from '../src/client/smartsheet-api.js';
import type { Action } from '../src/manifest/action.js';
import { CONFIRMED_DONE, type JobContext, type JobResult, type JobType } from '../src/queue/job-type.js';

/**
 * Small pieces every job type shares: call options from the context, outcome builders, and the one place where a
 * "not found" answer to a delete is turned into `unchanged` (only after a read shows the thing is really gone).
 */

export function callOptions(context: { signal: AbortSignal }): CallOptions {
  return { signal: context.signal };
}

export function succeeded(detail?: JobResult['detail']): JobResult {
  return detail === undefined ? { outcome: 'succeeded' } : { outcome: 'succeeded', detail };
}

export function unchanged(detail?: JobResult['detail']): JobResult {
  return detail === undefined ? { outcome: 'unchanged' } : { outcome: 'unchanged', detail };
}

/** The same object without its undefined members, so request bodies and query strings carry only what the row set. */
export function definedOnly<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export function isNotFound(error: unknown): error is ResourceNotFoundError {
  return error instanceof ResourceNotFoundError;
}

/** 403 1022: the service's "not a member of the organization" to a remove, e.g. a user someone removed already. */
export function isNoLongerMember(error: unknown): boolean {
  return isApiError(error) && error.status === 403 && error.errorCode === ERROR_CODES.removeNotMember;
}

/**
 * Runs a delete. A 404 (or a remove's 403 1022) alone does not prove the goal is met (the parent, e.g. the user or
 * sheet, may be the thing missing), so on 404 the job's own read-only `confirm` decides: gone → `unchanged`, or
 * `succeeded` after an attempt of this row whose answer was lost (its request landed late); anything else → the 404
 * stands.
 */
export async function deleteOrConfirmGone<A extends Action>(
  job: Pick<JobType<A>, 'confirm'>,
  context: JobContext<A>,
  remove: () => Promise<void>,
  detail?: JobResult['detail'],
): Promise<JobResult> {
  try {
    await remove();
    return succeeded(detail);
  } catch (error) {
    if (!isNotFound(error) && !isNoLongerMember(error)) throw error;
    const state = await job.confirm(context);
    // Gone after an attempt of this row whose answer was lost: that attempt's request landed late (a slow answer the
    // client stopped waiting for), so this row made the change (soak seed 7086: a revert's column deletion reported
    // `unchanged`, with no audit entry saying it was made).
    if (state === 'done' && context.previousAttemptUncertain) return { outcome: 'succeeded', message: CONFIRMED_DONE, ...(detail === undefined ? {} : { detail }) };
    if (state === 'done') return unchanged({ ...detail, alreadyGone: true });
    throw error;
  }
}

/** A required id that neither the pre-flight nor the row supplied, and that cannot be looked up. */
export function missingArgument(operation: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ operation, message });
}

/**
 * Something the row names does not exist: the class the client raises for a 404, so the queue treats it alike.
 * No HTTP status: the conclusion came from a listing, not from a 404 answer.
 */
export function notFound(operation: string, message: string): ResourceNotFoundError {
  return new ResourceNotFoundError({ operation, message });
}
