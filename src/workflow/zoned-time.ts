import { UsageError } from '../core/seatflow-error.js';
import { TIME_OF_DAY } from '../core/time-of-day.js';

const OFFSET_OR_Z = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/** Refuses a time zone name Intl does not know, with what to write instead. */
export function checkTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    throw new UsageError(`unknown time zone "${zone}"`, 'Give an IANA zone name, e.g. --tz Europe/Berlin or --tz America/New_York.');
  }
}

/**
 * One formatter per zone, made once: a DateTimeFormat costs tens of microseconds to make and holds ICU memory outside
 * the heap until it is collected, and an HR export of 100,000 rows reads two dates each (made per date, they took
 * seconds and 100–150 MB of RSS).
 */
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far `zone` is ahead of UTC at the instant `utcMs`, in ms. */
function zoneOffsetMs(utcMs: number, zone: string): number {
  let formatter = offsetFormatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(zone, formatter);
  }
  const parts = formatter.formatToParts(new Date(utcMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** A leave date read as an instant, and whether it was a date alone (the plan says how such a date was read). */
export type LeaveInstant = { ms: number; dateAlone: boolean } | { problem: string };

/**
 * An HR leave date as an instant (epoch ms). ISO-8601 with `Z` or an offset is taken as written; a date, or a date
 * and time without an offset, is local time in `zone`. A date alone names a day, not an instant: it is read at
 * `dateAloneAt` (`HH:MM` local, `24:00` = the end of that day; default `00:00`), as the column's meaning says
 * (docs/offboarding.md, "Leave dates"). Without a zone such a value is ambiguous and refused. Returns a message
 * instead of throwing, for row problems.
 */
export function parseLeaveDate(text: string, zone: string | undefined, dateAloneAt = '00:00'): LeaveInstant {
  const value = text.trim();
  if (OFFSET_OR_Z.test(value) && value.includes('T')) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? { ms, dateAlone: false } : { problem: `"${value}" is not an ISO-8601 date-time` };
  }
  const match = LOCAL.exec(value);
  if (match === null) return { problem: `"${value}" is not a date (write 2026-12-04, 2026-12-04T17:00 with --tz, or 2026-12-04T17:00:00Z)` };
  if (zone === undefined) {
    return { problem: `"${value}" has no time zone: pass --tz (e.g. --tz Europe/Berlin) or write the offset (2026-12-04T00:00:00+01:00)` };
  }
  const dateAlone = match[4] === undefined;
  const at = TIME_OF_DAY.exec(dateAloneAt);
  if (at === null) throw new UsageError(`"${dateAloneAt}" is not a time of day (HH:MM, 00:00 to 24:00)`);
  const [, y, mo, d, h, mi, s] = match.map((part) => (part === undefined ? 0 : Number(part)));
  const check = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1));
  if (check.getUTCMonth() !== (mo ?? 1) - 1 || check.getUTCDate() !== d) return { problem: `"${value}" is not a calendar date` };
  // Date.UTC rolls 24:00 over to the next day's 00:00, which is the end of the day named.
  const [hour, minute] = dateAlone ? [Number(at[1] ?? at[3]), Number(at[2] ?? at[4])] : [h ?? 0, mi ?? 0];
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, hour, minute, dateAlone ? 0 : (s ?? 0));
  // Two passes settle the offset across a daylight-saving change.
  let ms = wall - zoneOffsetMs(wall, zone);
  ms = wall - zoneOffsetMs(ms, zone);
  return { ms, dateAlone };
}

/** An instant as local wall time in `zone`, `2026-12-04 17:00`, for plans that show what a date was read as. */
export function formatInZone(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}
