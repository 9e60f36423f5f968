import type { StepBatchRetry } from '../../workflow/retry-step-batch.js';
import type { ControlDeps } from '../control-deps.js';

/**
 * Retry of a batch over HTTP, as `seatflow retry`: a step batch of an offboarding runs its failed steps again (the
 * re-check comes first, the leaver's phase follows); any other batch queues its failed rows again.
 */
export async function retryBatch(deps: ControlDeps, batchId: string): Promise<{ requeued: number; resumed: number } & Partial<Pick<StepBatchRetry, 'rerun' | 'workflowId' | 'step'>>> {
  return (await deps.offboarding?.system.retry(batchId)) ?? deps.batches.system.control.retry(batchId);
}
