import type { Queue } from 'bullmq';
import type { Logger } from '../core/logger.js';
import type { BatchRecord, BatchStore } from './batch-store.js';
import { rowJobId, rowJobOptions, type RowJobData } from './row-job.js';
import { rowsWithOutcome } from './row-outcome.js';

/**
 * Rows lost between two Redis servers: a row whose job is gone while no outcome was recorded.
 *
 * Redis replicates asynchronously. In a failover, a worker's connections move to the new master one by one: a row's
 * outcome can be written through a connection still on the old master (which drops it when it is demoted) while the
 * job is completed and removed through one already on the new master. The row then has neither a job nor an outcome,
 * and its batch would never finish. Nothing a worker writes can rule this out, so such rows are found and queued again
 * instead: the new job runs as after a lost answer (it confirms on the service before acting, so a change made by the
 * lost attempt is reported done, never made twice).
 */

/** Job states in which a row is still to run (or running). */
const PENDING_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

/**
 * Whether the batch may have lost rows: every row without an outcome has a job in the queue, so fewer pending jobs in
 * the whole queue (all batches) than rows without an outcome means some row has none. One cheap read; the batch's rows
 * are looked at only then. The jobs are counted first: a row that ends meanwhile only lowers the second count.
 */
export async function mayHaveLostRows(queue: Queue<RowJobData>, store: BatchStore, batchId: string): Promise<boolean> {
  const counts = await queue.getJobCounts(...PENDING_STATES);
  const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const batch = await store.get(batchId);
  if (batch === undefined || batch.state !== 'queued') return false;
  return batch.total - rowsWithOutcome(batch.counts) > pending;
}

/**
 * Queues again every row of the batch that has neither an outcome nor a job, marked `recovered` (confirm first).
 * Safe beside workers and `retry`: the outcome is read again after the job was found missing (a worker records the
 * outcome before its job is removed), and a job id BullMQ holds already makes the add a no-op. Returns the rows queued.
 */
export async function requeueLostRows(queue: Queue<RowJobData>, store: BatchStore, batch: BatchRecord, logger: Logger): Promise<number[]> {
  const queued: number[] = [];
  for await (const row of store.rowsWithoutOutcome(batch.id)) if (await requeueIfLost(queue, store, batch.id, row)) queued.push(row);
  if (queued.length > 0) {
    logger.warn({ batch: batch.id, rows: queued }, 'rows had neither a job nor an outcome (lost in a Redis failover): queued again; each confirms on the service before acting');
  }
  return queued;
}

/**
 * Queues the row again, marked `recovered`, when it is lost: no outcome, no job, and still no outcome once the job was
 * seen missing. True when it was. Only rows the batch holds (row numbers run 1..total; a gap, should one ever be,
 * does not become a job). `beforeQueue` runs once the row is known lost and before its job exists (retry reopens the
 * batch there, so that a worker taking the job at once does not find it cancelled or finished).
 */
export async function requeueIfLost(queue: Queue<RowJobData>, store: BatchStore, batchId: string, row: number, beforeQueue?: () => Promise<void>): Promise<boolean> {
  if (await store.hasOutcome(batchId, row)) return false;
  if ((await queue.getJob(rowJobId(batchId, row))) !== undefined) return false;
  if (await store.hasOutcome(batchId, row)) return false;
  const planned = await store.getRow(batchId, row);
  if (planned === undefined) return false;
  await beforeQueue?.();
  await queue.add(planned.actionName, { batchId, row, recovered: true }, rowJobOptions(batchId, row));
  return true;
}

/** How a worker looks for lost rows: every `intervalMs`, in the unfinished batches of its queue. */
export interface LostRowSweepOptions {
  queue: Queue<RowJobData>;
  store: BatchStore;
  logger: Logger;
  intervalMs: number;
  /** Recent batches looked at (newest first). */
  batches?: number;
}

/** Starts the periodic look; the returned function stops it (and waits for a look under way). */
export function startLostRowSweep(options: LostRowSweepOptions): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = async (): Promise<void> => {
    for (const batch of await options.store.list(options.batches ?? 50)) {
      if (stopped) return;
      if (batch.queueName !== options.queue.name || batch.state !== 'queued') continue;
      if (await mayHaveLostRows(options.queue, options.store, batch.id)) await requeueLostRows(options.queue, options.store, batch, options.logger);
    }
  };
  const timer = setInterval(() => {
    // One look at a time: a slow one (a large batch, a slow Redis) is not stacked with the next.
    if (running !== undefined) return;
    running = sweep()
      .catch((error: unknown) => options.logger.debug({ err: error }, 'could not look for lost rows now; trying again later'))
      .finally(() => (running = undefined));
  }, options.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
