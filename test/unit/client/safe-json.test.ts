import { describe, expect, it } from 'vitest';
import { assertNoUnsafeIntegers, parseJsonSafely, UnsafeIntegerError } from '../../../src/client/safe-json.js';

describe('parseJsonSafely', () => {
  it('parses 16-digit ids below 2^53 exactly', () => {
    expect(parseJsonSafely('{"id":5420192837465012,"ids":[9007199254740991]}')).toEqual({ id: 5420192837465012, ids: [9007199254740991] });
  });

  it('refuses an id beyond 2^53 instead of rounding it', () => {
    // JSON.parse would give 9007199254740992 here, silently.
    expect(() => parseJsonSafely('{"id":9007199254740993}')).toThrow(UnsafeIntegerError);
    expect(() => parseJsonSafely('{"id":9007199254740993}')).toThrow(/9007199254740993.*beyond 2\^53/);
  });

  it('refuses a negative integer beyond -(2^53)', () => {
    expect(() => parseJsonSafely('[-12345678901234567890]')).toThrow(UnsafeIntegerError);
  });

  it('ignores long digit runs inside strings, escaped quotes included', () => {
    expect(parseJsonSafely('{"lastKey":"12345678901234567890","m":"a \\"99999999999999999999\\" b"}')).toEqual({
      lastKey: '12345678901234567890',
      m: 'a "99999999999999999999" b',
    });
  });

  it('ignores large numbers with a fraction or an exponent, which are not ids', () => {
    expect(parseJsonSafely('{"a":12345678901234567890.5,"b":12345678901234567890e2}')).toEqual({
      a: Number('12345678901234567890.5'),
      b: Number('12345678901234567890e2'),
    });
  });

  it('reports where the literal is', () => {
    try {
      assertNoUnsafeIntegers('{"a":1,"id":99999999999999999}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UnsafeIntegerError);
      expect((error as UnsafeIntegerError).literal).toBe('99999999999999999');
      expect((error as UnsafeIntegerError).offset).toBe(12);
    }
  });
});
