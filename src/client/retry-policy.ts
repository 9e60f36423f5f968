import { ServiceUnavailableError, type ApiError } from './api-error.js';

/**
 * The opt-in retry of a client used directly (seatflow's queue owns its retries and leaves this off). Only
 * idempotent methods, only ServiceUnavailable, Retry-After honoured, otherwise exponential backoff with full jitter.
 */
export interface RetryPolicy {
  /** Total attempts including the first. Default 4. */
  maxAttempts?: number;
  /** No retry starts once elapsed time plus the next delay would exceed this. Default 60 000 ms. */
  maxElapsedMs?: number;
  /** Backoff base: attempt n waits up to base·2^(n-1). Default 1 000 ms. */
  baseDelayMs?: number;
  /** Ceiling of one backoff delay (not of Retry-After). Default 30 000 ms. */
  maxDelayMs?: number;
  /** A number in [0, 1); injected by tests. Default Math.random. */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY = {
  maxAttempts: 4,
  maxElapsedMs: 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  random: Math.random,
} as const satisfies Required<RetryPolicy>;

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
}

/** PUT and DELETE repeat to the same end state; POST (add, deactivate, create…) may not, so it is never repeated. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

const NO_RETRY: RetryDecision = { retry: false, delayMs: 0 };

/**
 * @param error the failure of attempt number `attempt` (1 for the first call)
 * @param elapsedMs time since the first attempt started
 */
export function decideRetry(error: unknown, attempt: number, elapsedMs: number, policy: RetryPolicy = {}): RetryDecision {
  const resolved = { ...DEFAULT_RETRY_POLICY, ...policy };
  if (!(error instanceof ServiceUnavailableError) || !error.retryable) return NO_RETRY;
  if (!isIdempotent(error)) return NO_RETRY;
  if (attempt >= resolved.maxAttempts) return NO_RETRY;
  const delayMs = error.retryAfterMs ?? fullJitter(attempt, resolved);
  if (elapsedMs + delayMs > resolved.maxElapsedMs) return NO_RETRY;
  return { retry: true, delayMs };
}

function isIdempotent(error: ApiError): boolean {
  return error.method !== undefined && IDEMPOTENT_METHODS.has(error.method.toUpperCase());
}

function fullJitter(attempt: number, policy: Required<RetryPolicy>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(policy.random() * ceiling);
}
