import { plural } from '../../core/plural.js';
import type { DoctorCheck } from './doctor-check.js';

/** The doctor's report for a person: one line per check, OK/WARN/FAIL first, what to do under each that is not OK. */
export function formatDoctor(targetLabel: string, checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((check) => check.name.length));
  const lines = [`seatflow doctor: ${targetLabel}`];
  for (const check of checks) {
    lines.push(`  ${check.status.padEnd(4)}  ${check.name.padEnd(width)}  ${check.message}`);
    if (check.status !== 'OK' && check.hint !== undefined) lines.push(`  ${' '.repeat(4 + 2 + width)}  → ${check.hint}`);
  }
  const count = (status: DoctorCheck['status']) => checks.filter((check) => check.status === status).length;
  lines.push(`${count('OK')} OK, ${plural(count('WARN'), 'warning')}, ${plural(count('FAIL'), 'failure')}`);
  return `${lines.join('\n')}\n`;
}
