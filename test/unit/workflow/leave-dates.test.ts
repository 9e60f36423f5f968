import { describe, expect, it } from 'vitest';
import { checkHold, formatHold, parseHold } from '../../../src/workflow/hold-duration.js';
import { checkTimeZone, parseLeaveDate } from '../../../src/workflow/zoned-time.js';

describe('parseLeaveDate', () => {
  it('takes an ISO-8601 date-time with Z or an offset as written', () => {
    expect(parseLeaveDate('2026-12-04T17:00:00Z', undefined)).toEqual({ ms: Date.UTC(2026, 11, 4, 17) });
    expect(parseLeaveDate('2026-12-04T17:00:00+01:00', 'America/New_York')).toEqual({ ms: Date.UTC(2026, 11, 4, 16) });
  });

  it('reads a date or a local date-time in --tz, across daylight saving', () => {
    expect(parseLeaveDate('2026-12-04', 'Europe/Berlin')).toEqual({ ms: Date.UTC(2026, 11, 3, 23) });
    expect(parseLeaveDate('2026-07-04T09:30', 'Europe/Berlin')).toEqual({ ms: Date.UTC(2026, 6, 4, 7, 30) });
    expect(parseLeaveDate('2026-03-08 12:00', 'America/New_York')).toEqual({ ms: Date.UTC(2026, 2, 8, 16) });
    expect(parseLeaveDate('2026-12-04', 'UTC')).toEqual({ ms: Date.UTC(2026, 11, 4) });
  });

  it('refuses a date without a zone, a non-date and an impossible day, saying what to write', () => {
    expect(parseLeaveDate('2026-12-04', undefined)).toEqual({ problem: expect.stringMatching(/has no time zone: pass --tz/) });
    expect(parseLeaveDate('next friday', 'UTC')).toEqual({ problem: expect.stringMatching(/is not a date/) });
    expect(parseLeaveDate('2026-02-30', 'UTC')).toEqual({ problem: expect.stringMatching(/not a calendar date/) });
  });

  it('refuses an unknown time zone', () => {
    expect(() => checkTimeZone('Mars/Olympus')).toThrow(/unknown time zone/);
    expect(checkTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
  });
});

describe('hold', () => {
  it('parses and prints durations', () => {
    expect(parseHold('7d')).toBe(7 * 86_400_000);
    expect(parseHold('36h')).toBe(36 * 3_600_000);
    expect(parseHold('3')).toBe(3 * 86_400_000);
    expect(parseHold('1w')).toBe(7 * 86_400_000);
    expect(() => parseHold('soon')).toThrow(/not a duration/);
    expect(formatHold(7 * 86_400_000)).toBe('7d');
    expect(formatHold(36 * 3_600_000)).toBe('36h');
  });

  it('can never be longer than the reactivation window', () => {
    expect(() => checkHold(7 * 86_400_000, 7)).not.toThrow();
    expect(() => checkHold(7 * 86_400_000 + 60_000, 7)).toThrow(/longer than the reactivation window \(7 days\)/);
  });
});
