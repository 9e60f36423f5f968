import type { Queue } from 'bullmq';
import type { Logger } from '../core/logger.js';

/**
 * A job that waits, as delayed work, for a row to end: a lifecycle's step waiting for the row of its step batch. The
 * step names itself when it queues the row (row-lifecycle.ts keeps the link with the row's state); the row's end
 * returns it, and the batch store wakes it at once, so the step goes on without polling.
 */
export interface RowWaiter {
  /** The BullMQ queue of the waiting job (same Redis and prefix as the rows). */
  queue: string;
  jobId: string;
}

/** Wakes a waiting job: promotes it when it is delayed; anything else (running, gone, already woken) is left alone. */
export type RowWaker = (waiter: RowWaiter) => Promise<void>;

export function encodeRowWaiter(waiter: RowWaiter): string {
  return JSON.stringify([waiter.queue, waiter.jobId]);
}

export function decodeRowWaiter(value: unknown): RowWaiter | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') return { queue: parsed[0], jobId: parsed[1] };
  } catch {
    // Not a waiter this version wrote: nobody is woken, the job's own slow look finds the outcome.
  }
  return undefined;
}

/**
 * The waker of one Redis and prefix: `queueFor` opens (or reuses) the named queue. A job that is not delayed (still
 * running its step: it looks at the outcome again once it waits, see step-runner.ts) is not promoted; a failure is
 * logged, never thrown: the row's outcome is recorded, and the waiting job's slow look will find it.
 */
export function createRowWaker(queueFor: (name: string) => Pick<Queue, 'getJob'>, logger: Logger): RowWaker {
  return async (waiter) => {
    try {
      const job = await queueFor(waiter.queue).getJob(waiter.jobId);
      if (job === undefined || !(await job.isDelayed())) return;
      await job.promote();
    } catch (error) {
      // Promoted by another waker in between (a step woken twice), or Redis failed: the job's slow look remains.
      logger.debug({ err: error, waiter }, 'could not wake the job waiting for a row');
    }
  };
}
