import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  InvalidRequestError,
  ServiceUnavailableError,
} from '../../../src/client/api-error.js';
import { decideRetry } from '../../../src/client/retry-policy.js';

const unavailable = (method: string, extra: { retryAfterMs?: number; retryable?: boolean; status?: number } = {}) =>
  new ServiceUnavailableError({ operation: 'users.get', method, message: 'x', status: extra.status ?? 503, ...extra });

describe('decideRetry', () => {
  const policy = { maxAttempts: 4, maxElapsedMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 30_000, random: () => 0.5 };

  it('waits Retry-After when the API answers 429 with one', () => {
    expect(decideRetry(unavailable('GET', { status: 429, retryAfterMs: 7_000 }), 1, 0, policy)).toEqual({ retry: true, delayMs: 7_000 });
  });

  it('backs off exponentially with full jitter when there is no Retry-After', () => {
    expect(decideRetry(unavailable('GET'), 1, 0, policy)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(unavailable('GET'), 2, 0, policy)).toEqual({ retry: true, delayMs: 1_000 });
    expect(decideRetry(unavailable('GET'), 3, 0, policy)).toEqual({ retry: true, delayMs: 2_000 });
    expect(decideRetry(unavailable('GET'), 3, 0, { ...policy, random: () => 0 })).toEqual({ retry: true, delayMs: 0 });
  });

  it('caps one backoff delay at maxDelayMs', () => {
    expect(decideRetry(unavailable('PUT'), 10, 0, { ...policy, maxAttempts: 20, random: () => 0.999 }).delayMs).toBe(29_970);
  });

  it('retries PUT and DELETE, never POST', () => {
    expect(decideRetry(unavailable('PUT'), 1, 0, policy).retry).toBe(true);
    expect(decideRetry(unavailable('DELETE'), 1, 0, policy).retry).toBe(true);
    expect(decideRetry(unavailable('POST'), 1, 0, policy).retry).toBe(false);
    expect(decideRetry(unavailable('POST', { status: 429, retryAfterMs: 1 }), 1, 0, policy).retry).toBe(false);
  });

  it('does not retry other categories or non-retryable server errors', () => {
    expect(decideRetry(new InvalidRequestError({ operation: 'x', method: 'GET', message: 'x', status: 400 }), 1, 0, policy).retry).toBe(false);
    expect(decideRetry(new AuthorizationError({ operation: 'x', method: 'GET', message: 'x', status: 401 }), 1, 0, policy).retry).toBe(false);
    expect(decideRetry(unavailable('GET', { status: 500, retryable: false }), 1, 0, policy).retry).toBe(false);
    expect(decideRetry(new Error('boom'), 1, 0, policy).retry).toBe(false);
  });

  it('stops after maxAttempts', () => {
    expect(decideRetry(unavailable('GET'), 3, 0, policy).retry).toBe(true);
    expect(decideRetry(unavailable('GET'), 4, 0, policy).retry).toBe(false);
  });

  it('stops when the next wait would pass maxElapsedMs', () => {
    expect(decideRetry(unavailable('GET', { retryAfterMs: 10_000 }), 1, 49_000, policy).retry).toBe(true);
    expect(decideRetry(unavailable('GET', { retryAfterMs: 10_000 }), 1, 51_000, policy).retry).toBe(false);
  });

  it('uses the defaults when no policy is given', () => {
    expect(decideRetry(unavailable('GET', { retryAfterMs: 2_000 }), 1, 0)).toEqual({ retry: true, delayMs: 2_000 });
  });
});
