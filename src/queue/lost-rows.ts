import type { Queue } from 'bullmq';
import type { Logger } from '../core/logger.js';
import type { BatchRecord, BatchStore } from './batch-store.js';
import type { RowJobData } from './row-job.js';

/**
 * Rows lost between two Redis servers: a row whose state says it is queued or running, whose job is gone while no
 * outcome was recorded. A row that is planned or scheduled (a lifecycle step's, not due yet) has no job by design and
 * is never taken for a lost one.
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
 * Whether some of these batches (every unfinished batch of the queue the caller knows) may have lost rows: every row
 * whose state is queued or running has a job in the queue, so fewer pending jobs in the whole queue than such rows in
 * all its batches means some row has none. Counted over all the batches at once: one batch's rows against the whole
 * queue's jobs would let any other batch's waiting jobs (a step row delayed to its due instant, a row in its backoff)
 * hide a lost row for as long as they wait. One cheap read per batch (the counts of the row states are on the batch
 * record); the rows are looked at only then. The jobs are counted first: a row that ends meanwhile only lowers the
 * second count. Rows planned or scheduled have no job by design: they never count.
 */
export async function mayHaveLostRows(queue: Queue<RowJobData>, store: BatchStore, batchIds: readonly string[]): Promise<boolean> {
  const counts = await queue.getJobCounts(...PENDING_STATES);
  const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
  let needJobs = 0;
  for (const batchId of batchIds) {
    const batch = await store.get(batchId);
    if (batch !== undefined && batch.state === 'queued') needJobs += batch.rowStates.queued + batch.rowStates.running;
  }
  return needJobs > pending;
}

/**
 * Queues again every row of the batch whose state says queued or running while it has neither an outcome nor a job,
 * marked `recovered` (confirm first). Safe beside workers and `retry` (row-lifecycle.ts `requeueIfLost`). Returns the
 * rows queued.
 */
export async function requeueLostRows(queue: Queue<RowJobData>, store: BatchStore, batch: BatchRecord, logger: Logger): Promise<number[]> {
  const queued: number[] = [];
  for await (const { row, state } of store.rowLifecycle.statuses(batch.id)) {
    if ((state === 'queued' || state === 'running') && (await store.rowLifecycle.requeueIfLost(queue, batch.id, row))) queued.push(row);
  }
  if (queued.length > 0) {
    logger.warn({ batch: batch.id, rows: queued }, 'rows queued or running had neither a job nor an outcome (lost in a Redis failover): queued again; each confirms on the service before acting');
  }
  return queued;
}

/** How a worker looks for lost rows: every `intervalMs`, in the unfinished batches of its queue. */
export interface LostRowSweepOptions {
  queue: Queue<RowJobData>;
  store: BatchStore;
  logger: Logger;
  intervalMs: number;
}

/** The newest batches a worker's first look makes open again (see the sweep). */
const REJOINED = 200;

/** Every this many looks, the rows of every unfinished batch are read, whatever the counts say. */
const EVERY_ROW_LOOK = 10;

/** Starts the periodic look; the returned function stops it (and waits for a look under way). */
export function startLostRowSweep(options: LostRowSweepOptions): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  let sweeps = 0;
  const sweep = async (): Promise<void> => {
    // At the first look and every tenth, the newest batches join the open ones again: a batch created before the index,
    // or whose joining a failover dropped while its record was kept (soak seed 6350, Sentinel: a batch submitted
    // across a failover kept its record, lost its row's job and its joining, and no worker started again to find it).
    // One that is done leaves at the audit catch-up's next look.
    if (sweeps % EVERY_ROW_LOOK === 0) for (const batch of await options.store.list(REJOINED)) await options.store.openBatches.join(batch.id);
    // Every open batch, however old (soak seed 3302: a batch of day 3 with a lost row, past the 200 newest by day 7,
    // was never looked at again).
    const unfinished = (await options.store.listOpen()).filter((batch) => batch.queueName === options.queue.name && batch.state === 'queued');
    // The count can miss a lost row while a job is counted that holds no row (a job whose data a failover dropped
    // while its id stayed listed): every tenth look reads the rows of every open batch anyway.
    sweeps += 1;
    if (sweeps % EVERY_ROW_LOOK !== 0 && !(await mayHaveLostRows(options.queue, options.store, unfinished.map((batch) => batch.id)))) return;
    for (const batch of unfinished) {
      if (stopped) return;
      if (batch.rowStates.queued + batch.rowStates.running > 0) await requeueLostRows(options.queue, options.store, batch, options.logger);
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
