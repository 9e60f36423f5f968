import { auditRetry, type ControlRequest } from '../../governance/audit/audit-batch-control.js';
import type { StepBatchRetry } from '../../workflow/retry-step-batch.js';
import type { ControlDeps } from '../control-deps.js';
import { withRedis } from '../with-redis.js';

export type RetryResult = { requeued: number; resumed: number } & Partial<Pick<StepBatchRetry, 'rerun' | 'workflowId' | 'step'>>;

/**
 * Retry of a batch over HTTP, as `seatflow retry`: a step batch of an offboarding runs its failed steps again (the
 * re-check comes first, the leaver's phase follows); any other batch queues its failed rows again. The audit trail
 * keeps who asked, when anything was queued again.
 */
export async function retryBatch(deps: ControlDeps, batchId: string, request: ControlRequest): Promise<RetryResult> {
  const result: RetryResult = await withRedis(deps, async () => (await deps.offboarding?.system.retry(batchId)) ?? deps.batches.system.control.retry(batchId), { timeout: false });
  const anything = result.requeued + result.resumed + (result.rerun ?? 0) > 0;
  if (anything && deps.governance !== undefined) await withRedis(deps, () => auditRetry(deps.governance!.audit, batchId, request, result));
  return result;
}
