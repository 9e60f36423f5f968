import type { BatchRecord } from '../../queue/batch-store.js';
import { offboardingStatus } from '../../workflow/offboarding-status.js';
import type { ControlDeps } from '../control-deps.js';
import { stepBatchOf } from '../../workflow/retry-step-batch.js';
import { batchActivity, type BatchActivity, type StepBatchFacts } from './batch-activity.js';

/**
 * Reads what `batchActivity` needs for each batch of one page: the rows started (one Redis read), or for a step batch
 * its offboarding's leavers (read once per offboarding however many of its step batches the page shows).
 */
export function createActivityReader(deps: ControlDeps, now = Date.now()): (batch: BatchRecord) => Promise<BatchActivity> {
  const statuses = new Map<string, Promise<StepBatchFacts['status'] | undefined>>();
  const statusOf = (offboardingId: string) => {
    let status = statuses.get(offboardingId);
    if (status === undefined) {
      status = readStatus(deps, offboardingId, now);
      statuses.set(offboardingId, status);
    }
    return status;
  };
  return async (batch) => {
    const step = stepBatchOf(batch.id);
    const status = step === undefined ? undefined : await statusOf(step.workflowId);
    if (step !== undefined && status !== undefined) return batchActivity(batch, { rowsStarted: 0, step: { step: step.step, status } });
    return batchActivity(batch, { rowsStarted: batch.state === 'queued' ? await deps.batches.system.store.rowsStarted(batch.id) : 0 });
  };
}

async function readStatus(deps: ControlDeps, offboardingId: string, now: number): Promise<StepBatchFacts['status'] | undefined> {
  const store = deps.offboarding?.system.store;
  if (store === undefined) return undefined;
  const workflow = await store.get(offboardingId);
  if (workflow === undefined) return undefined;
  // The workers count is not needed here (it costs a CLIENT LIST): 0.
  return offboardingStatus(workflow, await store.leavers(offboardingId), now, 0);
}
