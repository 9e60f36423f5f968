import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../src/client/retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-01T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:30 GMT', now)).toBe(30_000);
  });

  it('answers 0 for an HTTP date in the past', () => {
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('answers undefined when the header is absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['3', '9'], now)).toBe(3_000);
  });
});
