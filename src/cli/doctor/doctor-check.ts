/** One line of `seatflow doctor`: what was checked, how it stands, and what to do when it is not OK. */
export interface DoctorCheck {
  /** token, target, redis, failover (behind Sentinel), workers, steps, schedules. */
  name: string;
  status: 'OK' | 'WARN' | 'FAIL';
  message: string;
  /** What to do about a WARN or FAIL. */
  hint?: string;
  /** The exit code a FAIL stands for, as every command uses them: 2 token or configuration refused, 3 Redis unreachable, else 1. */
  exitCode?: number;
  /** Facts for monitoring (`--json`). */
  details?: Record<string, unknown>;
}

export const ok = (name: string, message: string, details?: Record<string, unknown>): DoctorCheck => ({ name, status: 'OK', message, ...(details === undefined ? {} : { details }) });
export const warn = (name: string, message: string, hint: string, details?: Record<string, unknown>): DoctorCheck => ({ name, status: 'WARN', message, hint, ...(details === undefined ? {} : { details }) });
export const fail = (name: string, message: string, hint: string, exitCode = 1, details?: Record<string, unknown>): DoctorCheck => ({ name, status: 'FAIL', message, hint, exitCode, ...(details === undefined ? {} : { details }) });

/** The doctor's exit code: the gravest failure's (3 Redis > 2 token > 1 other), 0 when nothing failed (warnings allowed). */
export function doctorExitCode(checks: readonly DoctorCheck[]): number {
  return Math.max(0, ...checks.filter((check) => check.status === 'FAIL').map((check) => check.exitCode ?? 1));
}
