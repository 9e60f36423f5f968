import { parseLeaveDate, type LeaveInstant } from '../workflow/zoned-time.js';
import type { LifecyclePolicy } from './lifecycle-policy.js';

const DAY_FIRST = /^(\d{1,2})([./])(\d{1,2})\2(\d{4})$/;

/**
 * An HR date as an instant, in the employee's zone: ISO as written (an offset or `Z` taken as is), or a date alone in
 * the policy's `dateFormat` (`MM/DD/YYYY`, `DD/MM/YYYY`, `DD.MM.YYYY`: HR systems write their locale's), read at
 * `dateAloneAt` (`00:00` for a start, `24:00` for a last day). The same reading as a leavers file's dates
 * (src/workflow/zoned-time.ts).
 */
export function parseExportDate(text: string, zone: string, dateFormat: LifecyclePolicy['dateFormat'], dateAloneAt: string): LeaveInstant {
  const written = text.trim();
  const local = dateFormat === 'YYYY-MM-DD' ? written : isoOf(written, dateFormat);
  const problem = `"${written}" is not a date written ${dateFormat} (the policy's "dateFormat") or ISO-8601 (2026-12-04, 2026-12-04T09:00, 2026-12-04T09:00:00Z)`;
  if (local === undefined || !/^\d{4}-\d{2}-\d{2}/.test(local)) return { problem };
  const read = parseLeaveDate(local, zone, dateAloneAt);
  return 'problem' in read && read.problem.includes('is not a date (') ? { problem } : read;
}

/** `12/04/2026` (MM/DD/YYYY) → `2026-12-04`; an ISO value is kept as written. */
function isoOf(written: string, format: Exclude<LifecyclePolicy['dateFormat'], 'YYYY-MM-DD'>): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}/.test(written)) return written;
  const match = DAY_FIRST.exec(written);
  if (match === null) return undefined;
  const separator = format === 'DD.MM.YYYY' ? '.' : '/';
  if (match[2] !== separator) return undefined;
  const [first, second, year] = [match[1] ?? '', match[3] ?? '', match[4] ?? ''];
  const [month, day] = format === 'MM/DD/YYYY' ? [first, second] : [second, first];
  return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** The zone of an employee's dates: their own `timeZone` column, else their location's, else the policy's. */
export function zoneOf(policy: Pick<LifecyclePolicy, 'timeZone' | 'locationTimeZones'>, own: string | undefined, location: string | undefined): string {
  if (own !== undefined) return own;
  if (location !== undefined) {
    const wanted = location.trim().toLowerCase();
    const found = Object.entries(policy.locationTimeZones).find(([name]) => name.trim().toLowerCase() === wanted);
    if (found !== undefined) return found[1];
  }
  return policy.timeZone;
}
