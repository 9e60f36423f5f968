import { Worker, type ConnectionOptions } from 'bullmq';
import type { Logger } from '../core/logger.js';
import type { BatchStore } from './batch-store.js';
import { closeBullmq } from './redis/close-bullmq.js';
import type { RowJobData } from './row-job.js';
import { RowLockLostError } from './row-lock-lost.js';
import type { createRowProcessor } from './row-processor.js';
import { logBullmqError } from './redis/connection-lost.js';

export interface WorkerPoolOptions {
  /** From RedisHandle.bullmqConnection(): commands wait through reconnections, as BullMQ requires of workers. */
  connection: ConnectionOptions;
  prefix: string;
  queueName: string;
  concurrency: number;
  processor: ReturnType<typeof createRowProcessor>;
  store: BatchStore;
  logger: Logger;
  /**
   * How long a worker's lock on a row lasts without renewal (renewed every half of it). A killed worker's rows are
   * picked up by another worker after about this long plus `stalledIntervalMs`. Default 15 s.
   */
  lockDurationMs?: number;
  /** Default 5 s. */
  stalledIntervalMs?: number;
  /** Stops whatever else the pool runs beside its worker (the look for lost rows), before the worker closes. */
  beforeClose?: () => Promise<void>;
}

export interface WorkerPool {
  worker: Worker<RowJobData>;
  /** Stops taking rows and waits up to `graceMs` for active rows; rows still running after that are left to BullMQ
   * (another worker picks them up as stalled, and confirms them before acting). */
  close(graceMs: number): Promise<void>;
}

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const worker = new Worker<RowJobData>(options.queueName, options.processor, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockDurationMs ?? 15_000,
    stalledInterval: options.stalledIntervalMs ?? 5_000,
    // A row may be interrupted by any number of crashes or Redis restarts; each time it is confirmed, never repeated
    // blindly. BullMQ would fail a row past its count without telling any worker (the row would never get an
    // outcome): the row processor counts them instead, and ends a row that keeps killing its worker (MAX_CRASHES_PER_ROW).
    maxStalledCount: Number.MAX_SAFE_INTEGER,
    // The budget paces calls; this limiter only exists so that queue.rateLimit() can pause fetching after a 429.
    limiter: { max: 1_000_000, duration: 1000 },
    autorun: true,
  });
  worker.on('error', logBullmqError(options.logger, 'worker'));
  // Another worker may own these rows now: abort their in-flight calls; the processor then records nothing for them.
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const jobId of jobIds) {
      options.logger.warn({ jobId }, 'lost the lock on a row (this worker was frozen or blocked): its call is aborted, another worker takes it');
      worker.cancelJob(jobId, new RowLockLostError(jobId).message);
    }
  });
  worker.on('failed', (job, error) => {
    if (job === undefined) return;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!final) {
      options.logger.warn({ batch: job.data.batchId, row: job.data.row, err: error }, 'row interrupted by an internal error; BullMQ retries it');
      return;
    }
    // BullMQ gave up on its own (internal errors every time): the row still gets its one outcome.
    void options.store
      .recordOutcome({
        batchId: job.data.batchId,
        row: job.data.row,
        line: 0,
        action: job.name,
        outcome: 'failed',
        category: 'Other',
        message: error.message,
        attempts: job.attemptsMade,
        finishedAt: new Date().toISOString(),
      })
      .catch((recordError: unknown) => options.logger.error({ err: recordError }, 'could not record an outcome'));
  });
  return {
    worker,
    close: async (graceMs) => {
      await options.beforeClose?.();
      await closeBullmq(worker, { graceMs, onForced: () => options.logger.warn({ graceMs }, 'active rows did not finish in time; they go back to the queue') });
    },
  };
}
