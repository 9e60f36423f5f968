import type { Ledger } from '../ledger/ledger.js';
import { callWithRetries, describeAnswer } from './call-with-retries.js';
import type { Handle, OperatorAction } from './operator-action.js';

/** Actions that leave a batch an operator can cancel or retry, and the batch of each. */
const BATCH_MAKERS = new Set(['manifest-batch', 'revert', 'scheduled-reconciliation', 'offboard']);

/** The batch an earlier event left: its own, or a step batch of its offboarding (`-deactivate`, `-remove`). */
function batchOf(handle: Handle | undefined, step: string): string | undefined {
  if (handle?.batchId !== undefined) return handle.batchId;
  return handle?.workflowId === undefined ? undefined : `${handle.workflowId}-${step}`;
}

/**
 * An operator's command on an earlier batch through the control API (`POST /v1/batches/:id/<verb>`, it-ops), and
 * what it does to that batch's promises when the API accepts it.
 */
function batchCommand(name: string, verb: 'cancel' | 'retry', amend: (ledger: Ledger, batchId: string, at: number) => void): OperatorAction {
  return {
    name,
    perDay: 0.7,
    hours: [8, 20],
    draw(context) {
      const candidates = context.earlier.filter((event) => event.kind === 'action' && BATCH_MAKERS.has(event.name));
      if (candidates.length === 0) return undefined;
      return { ref: context.draw.pick(candidates.slice(-5)).seq, step: context.draw.pick(['deactivate', 'remove']) };
    },
    async perform(params, context) {
      const batchId = batchOf(await context.handle(Number(params.ref)), String(params.step));
      if (batchId === undefined) {
        await context.note(`${verb}: event #${String(params.ref)} left no batch`);
        return;
      }
      const at = await context.now();
      const answer = await callWithRetries(() => context.world.api.ops.post(`/v1/batches/${batchId}/${verb}`));
      if (answer.status === 200) amend(context.ledger, batchId, at);
      const body = answer.body as { state?: string; batch?: { state?: string }; requeued?: number } | undefined;
      await context.note(`${verb} ${batchId}: ${answer.status === 200 ? `now ${body?.state ?? body?.batch?.state ?? 'answered'}${body?.requeued === undefined ? '' : `, ${body.requeued} rows again`}` : describeAnswer(answer)}`);
    },
  };
}

/**
 * Cancel: rows not started end cancelled, running rows finish. The batch's promises become optional: each row either
 * ran (and says so) or is cancelled (and changed nothing).
 */
export const cancelBatch = batchCommand('cancel-batch', 'cancel', (ledger, batchId, at) => {
  for (const promise of ledger.all()) {
    if (promise.outcome?.batchIds.includes(batchId) === true && promise.state === 'expected') ledger.amend(promise.key, { state: 'optional' }, at, `batch ${batchId} cancelled by it-ops`);
  }
});

/** Retry: failed and cancelled rows run again; a cancelled row's promise is expected again. */
export const retryBatch = batchCommand('retry-batch', 'retry', (ledger, batchId, at) => {
  for (const promise of ledger.all()) {
    if (promise.outcome?.batchIds.includes(batchId) === true && promise.state === 'optional' && promise.history.some((line) => line.includes('cancelled by'))) {
      ledger.amend(promise.key, { state: 'expected' }, at, `batch ${batchId} retried by it-ops`);
    }
  }
});
