import { callWithRetries, describeAnswer } from './call-with-retries.js';
import type { Handle, OperatorAction } from './operator-action.js';

/** Actions that leave a batch an operator can cancel or retry, and the batch of each. */
const BATCH_MAKERS = new Set(['manifest-batch', 'revert', 'scheduled-reconciliation', 'offboard']);

/** The batch an earlier event left: its own, or a step batch of its offboarding (`-deactivate`, `-remove`). */
function batchOf(handle: Handle | undefined, step: string): string | undefined {
  if (handle?.batchId !== undefined) return handle.batchId;
  return handle?.workflowId === undefined ? undefined : `${handle.workflowId}-${step}`;
}

function drawBatchRef(context: Parameters<OperatorAction['draw']>[0]): { ref: number; step: string } | undefined {
  const candidates = context.earlier.filter((event) => event.kind === 'action' && BATCH_MAKERS.has(event.name));
  if (candidates.length === 0) return undefined;
  return { ref: context.draw.pick(candidates.slice(-5)).seq, step: context.draw.pick(['deactivate', 'remove']) };
}

/**
 * An operator cancels an earlier batch (`POST /v1/batches/:id/cancel`): rows not started end cancelled, running rows
 * finish. Its promises become optional: each row either ran (and says so) or is cancelled (and changed nothing).
 */
export const cancelBatch: OperatorAction = {
  name: 'cancel-batch',
  perDay: 0.7,
  hours: [8, 20],
  draw: (context) => drawBatchRef(context),
  async perform(params, context) {
    const batchId = batchOf((await context.handle(Number(params.ref))), String(params.step));
    if (batchId === undefined) {
      await context.note(`cancel: event #${String(params.ref)} left no batch`);
      return;
    }
    const at = await context.now();
    const answer = await callWithRetries(() => context.world.api.ops.post(`/v1/batches/${batchId}/cancel`));
    if (answer.status === 200) {
      for (const promise of context.ledger.all()) {
        if (promise.outcome?.batchIds.includes(batchId) === true && promise.state === 'expected') context.ledger.amend(promise.key, { state: 'optional' }, at, `batch ${batchId} cancelled by it-ops`);
      }
    }
    const state = (answer.body as { state?: string; batch?: { state?: string } } | undefined);
    await context.note(`cancel ${batchId}: ${answer.status === 200 ? `now ${state?.state ?? state?.batch?.state ?? 'answered'}` : describeAnswer(answer)}`);
  },
};

/**
 * An operator retries an earlier batch (`POST /v1/batches/:id/retry`): its failed and cancelled rows run again. A
 * cancelled row's promise is expected again.
 */
export const retryBatch: OperatorAction = {
  name: 'retry-batch',
  perDay: 0.7,
  hours: [8, 20],
  draw: (context) => drawBatchRef(context),
  async perform(params, context) {
    const batchId = batchOf((await context.handle(Number(params.ref))), String(params.step));
    if (batchId === undefined) {
      await context.note(`retry: event #${String(params.ref)} left no batch`);
      return;
    }
    const at = await context.now();
    const answer = await callWithRetries(() => context.world.api.ops.post(`/v1/batches/${batchId}/retry`));
    if (answer.status === 200) {
      for (const promise of context.ledger.all()) {
        if (promise.outcome?.batchIds.includes(batchId) === true && promise.state === 'optional' && promise.history.some((line) => line.includes('cancelled by'))) {
          context.ledger.amend(promise.key, { state: 'expected' }, at, `batch ${batchId} retried by it-ops`);
        }
      }
    }
    await context.note(`retry ${batchId}: ${answer.status === 200 ? answer.text.slice(0, 160) : describeAnswer(answer)}`);
  },
};
