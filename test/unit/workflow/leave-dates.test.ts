import { describe, expect, it } from 'vitest';
import { checkHold, formatHold, parseHold } from '../../../src/workflow/hold-duration.js';
import { checkTimeZone, parseLeaveDate } from '../../../src/workflow/zoned-time.js';

describe('parseLeaveDate', () => {
  it('takes an ISO-8601 date-time with Z or an offset as written', () => {
    expect(parseLeaveDate('2026-12-04T17:00:00Z', undefined)).toEqual({ ms: Date.UTC(2026, 11, 4, 17), dateAlone: false });
    expect(parseLeaveDate('2026-12-04T17:00:00+01:00', 'America/New_York', '24:00')).toEqual({ ms: Date.UTC(2026, 11, 4, 16), dateAlone: false });
  });

  it('reads a date or a local date-time in --tz, across daylight saving', () => {
    expect(parseLeaveDate('2026-12-04', 'Europe/Berlin')).toEqual({ ms: Date.UTC(2026, 11, 3, 23), dateAlone: true });
    expect(parseLeaveDate('2026-07-04T09:30', 'Europe/Berlin')).toEqual({ ms: Date.UTC(2026, 6, 4, 7, 30), dateAlone: false });
    expect(parseLeaveDate('2026-03-08 12:00', 'America/New_York')).toEqual({ ms: Date.UTC(2026, 2, 8, 16), dateAlone: false });
    expect(parseLeaveDate('2026-12-04', 'UTC')).toEqual({ ms: Date.UTC(2026, 11, 4), dateAlone: true });
  });

  it('reads a date alone at the time of day given: 24:00 is the end of that day, across daylight saving', () => {
    // Europe/Berlin is UTC+1 in December: the end of 4 December is 23:00 UTC.
    expect(parseLeaveDate('2026-12-04', 'Europe/Berlin', '24:00')).toEqual({ ms: Date.UTC(2026, 11, 4, 23), dateAlone: true });
    expect(parseLeaveDate('2026-12-04', 'Europe/Berlin', '18:00')).toEqual({ ms: Date.UTC(2026, 11, 4, 17), dateAlone: true });
    // The day the clocks go back (25 hours long): its end is 2026-10-25 23:00 UTC, not 22:00.
    expect(parseLeaveDate('2026-10-25', 'Europe/Berlin', '24:00')).toEqual({ ms: Date.UTC(2026, 9, 25, 23), dateAlone: true });
    expect(parseLeaveDate('2026-12-31', 'America/New_York', '24:00')).toEqual({ ms: Date.UTC(2027, 0, 1, 5), dateAlone: true });
    // A time written in the cell is taken as written, whatever the time of day for a date alone.
    expect(parseLeaveDate('2026-12-04T09:00', 'Europe/Berlin', '24:00')).toEqual({ ms: Date.UTC(2026, 11, 4, 8), dateAlone: false });
    expect(() => parseLeaveDate('2026-12-04', 'UTC', '25:00')).toThrow(/not a time of day/);
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

  it('prints a hold exactly as long as it was given, never rounded', () => {
    expect(formatHold(parseHold('0.5m'))).toBe('30s');
    expect(formatHold(parseHold('90m'))).toBe('90m');
    expect(formatHold(parseHold('1.5d'))).toBe('36h');
    expect(formatHold(parseHold('0'))).toBe('0');
    expect(formatHold(1500)).toBe('1.5s');
  });

  it('can never be longer than the reactivation window the config names', () => {
    const config = { reactivationWindowDays: 30, minHoldHours: 24 };
    expect(() => checkHold(30 * 86_400_000, config)).not.toThrow();
    expect(() => checkHold(30 * 86_400_000 + 60_000, config)).toThrow(/longer than the reactivation window \(30 days\)/);
    expect(() => checkHold(8 * 86_400_000, { ...config, reactivationWindowDays: 7 })).toThrow(/longer than the reactivation window \(7 days\)/);
  });

  it('refuses a hold below the configured minimum unless --no-undo-window is said, naming the units', () => {
    const config = { reactivationWindowDays: 30, minHoldHours: 24 };
    expect(() => checkHold(0, config)).toThrow(/the hold \(0\) is shorter than the minimum of 1d \(config offboarding.minHoldHours\)/);
    expect(() => checkHold(parseHold('0.5m'), config)).toThrow(/the hold \(30s\) is shorter/);
    const refusal = (() => {
      try {
        checkHold(parseHold('23h'), config);
      } catch (error) {
        return error as { hint?: string };
      }
      return undefined;
    })();
    expect(refusal?.hint).toMatch(/--no-undo-window/);
    expect(refusal?.hint).toMatch(/m minutes, h hours, d days, w weeks/);
    expect(() => checkHold(0, config, { noUndoWindow: true })).not.toThrow();
    expect(() => checkHold(parseHold('1d'), config)).not.toThrow();
    expect(() => checkHold(parseHold('2h'), { ...config, minHoldHours: 2 })).not.toThrow();
  });
});
