import type { Queue } from 'bullmq';
import { UsageError } from '../core/seatflow-error.js';
import type { BatchStore } from './batch-store.js';
import type { QueueKeys } from './queue-keys.js';
import type { RedisClient } from './redis/lua-script.js';
import { requeueIfLost } from './lost-rows.js';
import { rowJobId, rowJobOptions, type RowJobData } from './row-job.js';
import type { RowOutcome } from './row-outcome.js';
import { rowIdentity } from './submit-batch.js';

export interface BatchControlOptions {
  redis: RedisClient;
  keys: QueueKeys;
  store: BatchStore;
  /** The queue of a batch, by its recorded name. */
  queueFor(queueName: string): Queue<RowJobData>;
}

const QUEUED_STATES = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);
/** Rows `cancel` handles at once. */
const CANCEL_SLICE = 200;
/** Outcomes `retry` runs again. */
const RETRIED: readonly RowOutcome['outcome'][] = ['failed', 'unknown', 'cancelled'];

/** `cancel` and `retry`: the two ways a person changes a batch after submitting it. */
export function createBatchControl(options: BatchControlOptions) {
  const { store } = options;

  async function requireBatch(batchId: string) {
    const batch = await store.get(batchId);
    if (batch === undefined) throw new UsageError(`no batch ${batchId}`, 'List batches with: seatflow status');
    return batch;
  }

  async function forgetRetryable(batchId: string, row: number): Promise<boolean> {
    for (const outcome of RETRIED) if (await store.forgetOutcome(batchId, row, outcome)) return true;
    return false;
  }

  const control = {
    /**
     * Queued rows end `cancelled`; rows already running finish normally. `by` names who cancelled, for the record.
     * Rows are taken CANCEL_SLICE at a time, each slice's commands sent together (a million-row batch is not a
     * million sequential round trips of each step).
     */
    async cancel(batchId: string, by = 'seatflow cancel'): Promise<{ cancelled: number; running: number }> {
      const batch = await requireBatch(batchId);
      if (batch.state === 'finished') return { cancelled: 0, running: 0 };
      await store.setState(batchId, 'cancelled', `cancelled by ${by}`);
      const queue = options.queueFor(batch.queueName);
      const cancelRow = async (row: number): Promise<'cancelled' | 'running' | 'ended'> => {
        if (await store.hasOutcome(batchId, row)) return 'ended';
        const job = await queue.getJob(rowJobId(batchId, row));
        if (job !== undefined) {
          if (!QUEUED_STATES.has(await job.getState())) return 'running';
          try {
            await job.remove();
          } catch {
            // It became active meanwhile; the worker sees the cancelled batch or finishes it.
            return 'running';
          }
        }
        const planned = await store.getRow(batchId, row);
        const recorded = await store.recordOutcome({
          ...rowIdentity(batchId, row, planned, 'unknown', batch.sim),
          outcome: 'cancelled',
          message: 'cancelled before it ran',
          attempts: 0,
          finishedAt: new Date().toISOString(),
        });
        return recorded ? 'cancelled' : 'ended';
      };
      let cancelled = 0;
      let running = 0;
      const rows = await store.rowNumbers(batchId);
      for (let first = 0; first < rows.length; first += CANCEL_SLICE) {
        for (const result of await Promise.all(rows.slice(first, first + CANCEL_SLICE).map(cancelRow))) {
          if (result === 'cancelled') cancelled += 1;
          if (result === 'running') running += 1;
        }
      }
      return { cancelled, running };
    },

    /**
     * Makes a failed, unknown or cancelled row runnable again: forgets its outcome, gives it a fresh retry budget (its
     * answered and crashed attempts both start from zero again) and removes its old job (a job id BullMQ still holds
     * would make a new add a no-op). The in-flight marker stays: a row whose last attempt may have applied confirms
     * before acting. False when the row had no such outcome.
     */
    async forgetRow(batchId: string, row: number, queueName: string): Promise<boolean> {
      if (!(await forgetRetryable(batchId, row))) return false;
      await options.queueFor(queueName).remove(rowJobId(batchId, row));
      // The crashed attempts go too: a row that ended `unknown` after killing its workers would otherwise end so again
      // at once, never tried (retry is what its message tells the person to run once the cause is found).
      await options.redis.multi().hdel(options.keys.attempts(batchId), String(row)).hdel(options.keys.started(batchId), String(row)).hdel(options.keys.crashed(batchId), String(row)).exec();
      return true;
    },

    /**
     * Queues the failed, unknown and cancelled rows again (with a fresh retry budget) and resumes the rows waiting as
     * delayed jobs (a batch stopped by a refused token, rows a wrong clock parked too far ahead), so a cancelled batch
     * can be taken up again where it stopped. A row whose last attempt may have applied (every `unknown` row) kept its
     * in-flight marker, so it confirms before acting. Rows the pre-flight refused are not retried: nothing changed
     * about them (plan the manifest again instead). `only` limits it to those rows (a workflow retrying its steps).
     * A batch with nothing to run again is left exactly as it is: its state and finishedAt stay true.
     */
    async retry(batchId: string, only?: ReadonlySet<number>): Promise<{ requeued: number; resumed: number }> {
      const batch = await requireBatch(batchId);
      if (batch.state === 'finished' && RETRIED.every((outcome) => batch.counts[outcome] === 0)) return { requeued: 0, resumed: 0 };
      const queue = options.queueFor(batch.queueName);
      let reopened = false;
      const reopen = async (): Promise<void> => {
        if (!reopened && batch.state !== 'queued') await store.setState(batchId, 'queued');
        reopened = true;
      };
      let requeued = 0;
      let resumed = 0;
      for (const row of await store.rowNumbers(batchId)) {
        if (only !== undefined && !only.has(row)) continue;
        if (RETRIED.some((outcome) => batch.counts[outcome] > 0) && (await control.forgetRow(batchId, row, batch.queueName))) {
          await reopen();
          await queue.add(batch.queueName, { batchId, row }, rowJobOptions(batchId, row));
          requeued += 1;
        } else if (!(await store.hasOutcome(batchId, row))) {
          // Rows of a stopped batch, and rows parked further ahead than they should be (a machine's clock ran ahead),
          // run now. Promoting a row early is safe: one whose earlier request may still land parks itself again.
          const job = await queue.getJob(rowJobId(batchId, row));
          if (job !== undefined && (await job.getState()) === 'delayed') {
            await reopen();
            await job.promote();
            resumed += 1;
          } else if (job === undefined && (await requeueIfLost(queue, store, batchId, row, reopen))) {
            // Lost in a Redis failover (lost-rows.ts): queued again, to confirm before acting.
            requeued += 1;
          }
        }
      }
      if (reopened) await store.finishIfComplete(batchId, new Date());
      return { requeued, resumed };
    },
  };
  return control;
}

export type BatchControl = ReturnType<typeof createBatchControl>;
