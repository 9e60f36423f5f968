import { isApiError, ServiceUnavailableError } from '../client/api-error.js';
import { SeatflowError } from '../core/seatflow-error.js';

/** The retry budget of one row (config `retry`). */
export interface RetryPolicy {
  /** Attempts that reach the service, the first included. */
  maxAttempts: number;
  /** No retry is scheduled that would start later than this after the row's first attempt. */
  maxElapsedMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export type RetryDecision =
  /** A 429: the whole fleet pauses; the row goes back to the queue and the attempt does not count. */
  | { kind: 'rate-limited'; retryAfterMs: number | undefined }
  /** Worth another attempt after `delayMs`. */
  | { kind: 'retry'; delayMs: number }
  /** The row fails now; `exhausted` when it was retryable but the budget is spent. */
  | { kind: 'fail'; exhausted: boolean }
  /** The token is refused: stop the batch, keep the remaining rows queued, ask for a fixed token. */
  | { kind: 'stop-batch' }
  /**
   * A 403 "not authorized" (1004): this token may not do this to this object, or it is no System Admin any more. The
   * batch re-reads its own token (shared across the fleet) and then asks `decideAfterTokenCheck`.
   */
  | { kind: 'verify-token' };

export interface RetryInput {
  error: unknown;
  /** Attempts made so far, including the one that just failed. */
  attempts: number;
  /** Since the row's first attempt started. */
  elapsedMs: number;
  policy: RetryPolicy;
  /** [0, 1); Math.random by default. */
  random?: () => number;
}

/**
 * The one place that decides what a failed row does next. The client only classifies (category, retryable,
 * retryAfterMs); following the service's advice, 4xx are never retried, 429 waits for the window, 5xx and network
 * failures back off exponentially with full jitter (a random delay in [0, min(max, base·2^(n-1))]) so that a
 * recovering service is not hit by every worker at once.
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const { error, policy } = input;
  if (error instanceof ServiceUnavailableError && error.rateLimited) {
    return { kind: 'rate-limited', retryAfterMs: error.retryAfterMs };
  }
  if (isApiError(error) && error.category === 'Authorization') {
    // 401 is always about the token; a 403 here (1004, or no readable code) may be about this one object only.
    return error.status === 403 ? { kind: 'verify-token' } : { kind: 'stop-batch' };
  }
  const retryable = error instanceof SeatflowError ? error.retryable : false;
  if (!retryable) return { kind: 'fail', exhausted: false };
  if (input.attempts >= policy.maxAttempts) return { kind: 'fail', exhausted: true };
  const random = input.random ?? Math.random;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, input.attempts - 1));
  let delayMs = Math.floor(random() * ceiling);
  const hinted = error instanceof SeatflowError ? error.retryAfterMs : undefined;
  if (hinted !== undefined && hinted > delayMs) delayMs = Math.min(hinted, policy.maxDelayMs);
  if (input.elapsedMs + delayMs > policy.maxElapsedMs) return { kind: 'fail', exhausted: true };
  return { kind: 'retry', delayMs };
}

/**
 * After a 403/1004, what the token re-read says (docs/service.md#errors): still a System Admin → the refusal was about this
 * row's object, the row fails with its code and the batch goes on; not any more (or unknown) → stop the batch as for
 * a refused token, since every other row would be refused too. Unknown stops rather than fails: a stopped batch
 * resumes with `seatflow retry`, nothing is lost.
 */
export function decideAfterTokenCheck(stillSystemAdmin: boolean | undefined): Extract<RetryDecision, { kind: 'fail' | 'stop-batch' }> {
  return stillSystemAdmin === true ? { kind: 'fail', exhausted: false } : { kind: 'stop-batch' };
}
