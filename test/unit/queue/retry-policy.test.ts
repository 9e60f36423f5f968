import { describe, expect, it } from 'vitest';
import { AuthorizationError, InvalidRequestError, ResourceNotFoundError, ServiceUnavailableError } from '../../../src/client/api-error.js';
import { decideAfterTokenCheck, decideRetry, type RetryPolicy } from '../../../src/queue/retry-policy.js';

const policy: RetryPolicy = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 1000, maxDelayMs: 8000 };
const unavailable = (extra: { status?: number; retryAfterMs?: number; errorCode?: number } = {}) =>
  new ServiceUnavailableError({ operation: 'users.deactivate', message: 'unavailable', status: extra.status ?? 503, ...extra });

describe('decideRetry', () => {
  it('spends no attempt on a 429 and passes its Retry-After on', () => {
    const decision = decideRetry({ error: unavailable({ status: 429, errorCode: 4003, retryAfterMs: 7000 }), attempts: 5, elapsedMs: 0, policy });
    expect(decision).toEqual({ kind: 'rate-limited', retryAfterMs: 7000 });
  });

  it('stops the batch on an authorization error', () => {
    const error = new AuthorizationError({ operation: 'users.deactivate', message: 'bad token', status: 401, errorCode: 1002 });
    expect(decideRetry({ error, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'stop-batch' });
  });

  it('asks for a token re-read on a 403 not-authorized (1004), and on a 403 without a code', () => {
    const forbidden = new AuthorizationError({ operation: 'users.deactivate', message: 'not authorized', status: 403, errorCode: 1004 });
    const opaque = new AuthorizationError({ operation: 'users.deactivate', message: 'forbidden', status: 403 });
    expect(decideRetry({ error: forbidden, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'verify-token' });
    expect(decideRetry({ error: opaque, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'verify-token' });
  });

  it('after the re-read: still a System Admin fails the row, otherwise (or unknown) stops the batch', () => {
    expect(decideAfterTokenCheck(true)).toEqual({ kind: 'fail', exhausted: false });
    expect(decideAfterTokenCheck(false)).toEqual({ kind: 'stop-batch' });
    expect(decideAfterTokenCheck(undefined)).toEqual({ kind: 'stop-batch' });
  });

  it('fails at once on a 403 refusal of one row (not 1004): the batch goes on', () => {
    const refusal = new InvalidRequestError({ operation: 'users.deactivate', message: 'consumer domain', status: 403, errorCode: 1359 });
    expect(decideRetry({ error: refusal, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'fail', exhausted: false });
  });

  it('fails at once on invalid request and not found', () => {
    const invalid = new InvalidRequestError({ operation: 'users.deactivate', message: 'refused', status: 400, errorCode: 1359 });
    const missing = new ResourceNotFoundError({ operation: 'users.deactivate', message: 'no user', status: 404 });
    expect(decideRetry({ error: invalid, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'fail', exhausted: false });
    expect(decideRetry({ error: missing, attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'fail', exhausted: false });
  });

  it('backs off exponentially with full jitter on a 5xx', () => {
    const top = (attempts: number) => decideRetry({ error: unavailable(), attempts, elapsedMs: 0, policy, random: () => 0.999 });
    expect(top(1)).toEqual({ kind: 'retry', delayMs: 999 });
    expect(top(2)).toEqual({ kind: 'retry', delayMs: 1998 });
    expect(top(3)).toEqual({ kind: 'retry', delayMs: 3996 });
    expect(top(4)).toEqual({ kind: 'retry', delayMs: 7992 });
    expect(decideRetry({ error: unavailable(), attempts: 3, elapsedMs: 0, policy, random: () => 0 })).toEqual({ kind: 'retry', delayMs: 0 });
  });

  it('caps the delay at maxDelayMs', () => {
    const wide = { ...policy, maxAttempts: 20 };
    expect(decideRetry({ error: unavailable(), attempts: 10, elapsedMs: 0, policy: wide, random: () => 0.5 })).toEqual({ kind: 'retry', delayMs: 4000 });
  });

  it('gives up when the attempts are spent', () => {
    expect(decideRetry({ error: unavailable(), attempts: 5, elapsedMs: 0, policy })).toEqual({ kind: 'fail', exhausted: true });
  });

  it('gives up when the next attempt would start after maxElapsedMs', () => {
    expect(decideRetry({ error: unavailable(), attempts: 2, elapsedMs: 59_500, policy, random: () => 0.9 })).toEqual({ kind: 'fail', exhausted: true });
  });

  it('waits at least the hinted Retry-After of a 503', () => {
    expect(decideRetry({ error: unavailable({ retryAfterMs: 5000 }), attempts: 1, elapsedMs: 0, policy, random: () => 0.1 })).toEqual({ kind: 'retry', delayMs: 5000 });
  });

  it('fails an unexpected error without retrying it', () => {
    expect(decideRetry({ error: new TypeError('bug'), attempts: 1, elapsedMs: 0, policy })).toEqual({ kind: 'fail', exhausted: false });
  });
});
