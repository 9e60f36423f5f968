import { auditCancel, type ControlRequest } from '../../governance/audit/audit-batch-control.js';
import type { ControlDeps } from '../control-deps.js';
import { withRedis } from '../with-redis.js';

/**
 * `seatflow cancel` for the control API and the dashboard (one function, so both act alike): the batch's message
 * names who cancelled it and from where (`cancelled by alice (dashboard)`), and the audit trail keeps it with the reason.
 */
export async function cancelBatch(deps: ControlDeps, batchId: string, request: ControlRequest): Promise<{ cancelled: number; running: number }> {
  const result = await withRedis(deps, () => deps.batches.system.control.cancel(batchId, `${request.by} (${request.via})`), { timeout: false });
  if (deps.governance !== undefined) await withRedis(deps, () => auditCancel(deps.governance!.audit, batchId, request, result));
  return result;
}
