import { auditScheduleRun, type ControlRequest } from '../../governance/audit/audit-batch-control.js';
import type { ControlDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { withRedis } from '../with-redis.js';

/**
 * `seatflow schedule run NAME` from the dashboard: one run queued as a tick at this time (a worker of the target runs
 * it), kept in the audit trail with who asked.
 */
export async function runScheduleNow(deps: ControlDeps, name: string, request: ControlRequest): Promise<{ jobId: string; workers: number }> {
  const book = deps.schedules;
  const queued = book === undefined ? undefined : await withRedis(deps, () => book.runNow(name));
  if (queued === undefined) throw new ControlError(404, CONTROL_ERROR_CODES.notFound, `no schedule ${name}`, { hint: 'The Schedules page lists them; it may have been removed meanwhile.' });
  if (deps.governance !== undefined) await withRedis(deps, () => auditScheduleRun(deps.governance!.audit, name, request, queued));
  return queued;
}
