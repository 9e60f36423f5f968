import type { Job } from 'bullmq';

/** BullMQ's own move of an active job to the delayed set, which takes the time the delay counts from. */
interface DelayedMove {
  moveToDelayed(jobId: string, timestamp: number, delay: number, token?: string, opts?: { skipAttempt?: boolean }): Promise<unknown>;
}

/**
 * Moves an active job to the delayed set, due `delayMs` after `nowMs`, where `nowMs` is the shared clock's time
 * (Redis TIME) and `delayMs` is cut to `maxDelayMs`. `job.moveToDelayed(when)` would date the job by this worker's
 * own clock (BullMQ scores a delayed job by the mover's Date.now()), so a worker whose clock runs ahead would park a
 * row years away and the batch would never finish. This goes through the same BullMQ script, dated by Redis.
 */
export async function parkJob(job: Job, token: string | undefined, options: { nowMs: number; delayMs: number; maxDelayMs: number }): Promise<number> {
  const delayMs = Math.max(0, Math.min(Math.round(options.delayMs), options.maxDelayMs));
  const scripts = (job as unknown as { scripts: DelayedMove }).scripts;
  if (job.id === undefined) throw new Error('a job without an id cannot be parked');
  await scripts.moveToDelayed(job.id, options.nowMs, delayMs, token, { skipAttempt: true });
  return delayMs;
}
