import type { Job, Queue } from 'bullmq';
import { UsageError } from '../core/seatflow-error.js';
import type { BatchStore } from './batch-store.js';
import type { QueueKeys } from './queue-keys.js';
import type { RedisClient } from './redis/lua-script.js';
import { createRowAttempts } from './row-attempt.js';
import { rowJobId, rowJobOptions, type RowJobData } from './row-job.js';
import type { RowOutcome } from './row-outcome.js';
import { rowIdentity } from './submit-batch.js';
import { writeTogether } from './redis/write-together.js';

export interface BatchControlOptions {
  redis: RedisClient;
  keys: QueueKeys;
  store: BatchStore;
  /** The queue of a batch, by its recorded name. */
  queueFor(queueName: string): Queue<RowJobData>;
}

/** Row states `cancel` ends: every state but running (row-lifecycle.ts); `none` is a row queued before rows had states. */
const CANCELLABLE = ['planned', 'scheduled', 'queued', 'none'] as const;
/** Rows `cancel` handles at once. */
const CANCEL_SLICE = 200;
/** Outcomes `retry` runs again. */
const RETRIED: readonly RowOutcome['outcome'][] = ['failed', 'unknown', 'cancelled'];

/** `cancel` and `retry`: the two ways a person changes a batch after submitting it. */
export function createBatchControl(options: BatchControlOptions) {
  const { store } = options;
  const attempts = createRowAttempts(options.redis, options.keys);

  async function requireBatch(batchId: string) {
    const batch = await store.get(batchId);
    if (batch === undefined) throw new UsageError(`no batch ${batchId}`, 'List batches with: seatflow status');
    return batch;
  }

  /**
   * A fresh retry budget. The crashed attempts go too: a row that ended `unknown` after killing its workers would
   * otherwise end so again at once, never tried (retry is what its message tells the person to run once the cause is
   * found).
   */
  async function clearAttempts(batchId: string, row: number): Promise<void> {
    const counts = [options.keys.attempts(batchId), options.keys.started(batchId), options.keys.crashed(batchId)];
    await writeTogether(options.redis, counts, counts.map((key) => ['HDEL', key, row]));
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
      // The row's state decides (row-lifecycle.ts): a row a worker runs finishes; any other ends cancelled, and then
      // its job, if it has one, goes (a worker handed it meanwhile finds the row ended and does nothing).
      const cancelRow = async (row: number): Promise<'cancelled' | 'running' | 'ended'> => {
        // A row parked while a request of it may still land has not "not run": it may have applied. Its worker confirms
        // it and it ends as it finds (the marker stays until an attempt ends knowing nothing changed).
        if (await attempts.inFlight(batchId, row)) return (await store.rowLifecycle.statusOf(batchId, row)).state === 'ended' ? 'ended' : 'running';
        const planned = await store.getRow(batchId, row);
        const ended = await store.endRow(
          { ...rowIdentity(batchId, row, planned, 'unknown', batch.sim), outcome: 'cancelled', message: 'cancelled before it ran', attempts: 0, finishedAt: new Date().toISOString() },
          CANCELLABLE,
        );
        if (ended.kind === 'refused') return 'running';
        if (ended.kind === 'had-outcome') return 'ended';
        await queue.remove(rowJobId(batchId, row)).catch(() => 0);
        return 'cancelled';
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
     * Forgets a row's outcome so that its workflow's step can run it again: the row goes back to planned (the step
     * queues it when it runs), its old job and its attempts go. False when the row had no outcome.
     */
    async forgetForStep(batchId: string, row: number, queueName: string): Promise<boolean> {
      const outcome = await store.getOutcome(batchId, row);
      if (outcome === undefined || !(await store.forgetOutcome(batchId, row, outcome, 'planned'))) return false;
      await options.queueFor(queueName).remove(rowJobId(batchId, row));
      await clearAttempts(batchId, row);
      return true;
    },

    /**
     * Makes a failed, unknown or cancelled row runnable again: forgets its outcome (its state goes back to queued),
     * gives it a fresh retry budget (its answered and crashed attempts both start from zero again) and queues it with
     * a new job (the old one, which BullMQ may still hold, goes first: a job id it holds would make the add a no-op).
     * The in-flight marker stays: a row whose last attempt may have applied confirms before acting. False when the row
     * had no such outcome.
     */
    async requeueEnded(batchId: string, row: number, queueName: string, beforeQueue?: () => Promise<void>): Promise<boolean> {
      const outcome = await store.getOutcome(batchId, row);
      if (outcome === undefined || !RETRIED.includes(outcome.outcome)) return false;
      const queue = options.queueFor(queueName);
      await queue.remove(rowJobId(batchId, row));
      await beforeQueue?.();
      if (!(await store.forgetOutcome(batchId, row, outcome, 'queued'))) return false;
      await clearAttempts(batchId, row);
      await queue.add(outcome.action, { batchId, row }, rowJobOptions(batchId, row));
      return true;
    },

    /**
     * Queues the failed, unknown and cancelled rows again (with a fresh retry budget) and resumes the rows waiting as
     * delayed jobs (a batch stopped by a refused token, rows a wrong clock parked too far ahead), so a cancelled batch
     * can be taken up again where it stopped; a row whose state says queued or running while no job holds it (lost in
     * a failover) is queued again. A row whose last attempt may have applied (every `unknown` row) kept its in-flight
     * marker, so it confirms before acting. Rows the pre-flight refused are not retried: nothing changed about them
     * (plan the manifest again instead). Rows of a workflow's step (they have a due instant) are run again by their
     * workflow, which re-reads and re-checks first; alone, only an `unknown` one is taken (its step waits for it), and
     * the others are counted in `leftToSteps`. `only` limits it to those rows (a workflow retrying its steps, which
     * may then be any). A batch with nothing to run again is left exactly as it is: its state and finishedAt stay true.
     */
    async retry(batchId: string, only?: ReadonlySet<number>): Promise<{ requeued: number; resumed: number; leftToSteps: number }> {
      const batch = await requireBatch(batchId);
      if (batch.state === 'finished' && RETRIED.every((outcome) => batch.counts[outcome] === 0)) return { requeued: 0, resumed: 0, leftToSteps: 0 };
      const queue = options.queueFor(batch.queueName);
      let reopened = false;
      const reopen = async (): Promise<void> => {
        if (!reopened && batch.state !== 'queued') await store.setState(batchId, 'queued');
        reopened = true;
      };
      let requeued = 0;
      let resumed = 0;
      let leftToSteps = 0;
      const rows = (await store.rowNumbers(batchId)).filter((row) => only === undefined || only.has(row));
      const statuses = await store.rowLifecycle.statusesOf(batchId, rows);
      for (const row of rows) {
        const { state, dueAt } = statuses.get(row) ?? {};
        const outcome = state === 'ended' || state === undefined ? await store.getOutcome(batchId, row) : undefined;
        if (outcome !== undefined) {
          if (!RETRIED.includes(outcome.outcome)) continue;
          if (dueAt !== undefined && only === undefined && outcome.outcome !== 'unknown') {
            leftToSteps += 1;
            continue;
          }
          if (await control.requeueEnded(batchId, row, batch.queueName, reopen)) requeued += 1;
        } else if (state === 'queued' || state === 'running' || state === undefined) {
          // Rows of a stopped batch, and rows parked further ahead than they should be (a machine's clock ran ahead),
          // run now. Promoting a row early is safe: one whose earlier request may still land parks itself again, and
          // one not due yet waits for its due instant again.
          const job = await queue.getJob(rowJobId(batchId, row));
          if (job !== undefined && (await job.getState()) === 'delayed') {
            await reopen();
            await promoteUnlessStarted(job);
            resumed += 1;
          } else if (job === undefined && (await store.rowLifecycle.requeueIfLost(queue, batchId, row, reopen))) {
            // Lost in a Redis failover (lost-rows.ts): queued again, to confirm before acting.
            requeued += 1;
          }
        }
      }
      if (reopened) await store.finishIfComplete(batchId, new Date());
      return { requeued, resumed, leftToSteps };
    },
  };
  return control;
}

export type BatchControl = ReturnType<typeof createBatchControl>;

/**
 * Runs a delayed row's job now. It may have become due between reading its state and promoting it (a Redis refusing
 * writes for seconds makes that gap wide), and BullMQ then refuses the promotion: the row runs as retry wanted, so
 * that is no failure. Any other refusal, or one while the job is still delayed, is.
 */
async function promoteUnlessStarted(job: Job<RowJobData>): Promise<void> {
  try {
    await job.promote();
  } catch (error) {
    if ((await job.getState()) === 'delayed') throw error;
  }
}
