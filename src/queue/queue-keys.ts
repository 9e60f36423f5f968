import { createHash } from 'node:crypto';

/** The BullMQ queue every batch's rows go through (one queue, so `worker` serves every open batch). */
export const ROWS_QUEUE = 'rows';

/**
 * Every Redis key seatflow writes besides BullMQ's own, all under the configured prefix (`redis.queuePrefix`), so
 * that environments (and tests) sharing one Redis never see each other's data.
 */
export function createQueueKeys(prefix: string) {
  const base = `${prefix}:sf`;
  return {
    /** Sorted set of batch ids by creation time. */
    batches: `${base}:batches`,
    batch: (batchId: string) => `${base}:batch:${batchId}`,
    /** Hash row → planned row (JSON) of the rows that are queued as jobs. */
    rows: (batchId: string) => `${base}:batch:${batchId}:rows`,
    /** Hash row → outcome (JSON); a row has an outcome once and only once. */
    outcomes: (batchId: string) => `${base}:batch:${batchId}:outcomes`,
    /** Hash row → 1 while an attempt is running or ended without knowing whether the change was made. */
    inflight: (batchId: string) => `${base}:batch:${batchId}:inflight`,
    /** Hash row → attempts that reached the service. */
    attempts: (batchId: string) => `${base}:batch:${batchId}:attempts`,
    /** Hash row → first start time (ms). */
    started: (batchId: string) => `${base}:batch:${batchId}:started`,
    /** GCRA state (theoretical arrival time) of an access token's request budget. */
    budget: (tokenKey: string) => `${base}:budget:${tokenKey}`,
    /** Until when (ms) every worker using this token waits, after a 429. */
    pause: (tokenKey: string) => `${base}:pause:${tokenKey}`,
    /** Counters of calls and 429s per token, for status and benchmarks. */
    calls: (tokenKey: string) => `${base}:calls:${tokenKey}`,
    /** The last run (JSON) of a reconciliation schedule of one schedule queue. */
    scheduleLastRun: (scheduleQueue: string, name: string) => `${base}:schedule:${scheduleQueue}:${name}:last`,
  };
}

export type QueueKeys = ReturnType<typeof createQueueKeys>;

/** The BullMQ queue of a target's reconciliation schedules (Job Schedulers): only workers of that service fire them. */
export function scheduleQueueNameOf(target: string): string {
  return `schedules-${createHash('sha256').update(target).digest('hex').slice(0, 8)}`;
}

/** A token is never written to Redis; its budget is keyed by a hash of it. */
export function tokenKey(accessToken: string): string {
  return createHash('sha256').update(`seatflow-budget:${accessToken}`).digest('hex').slice(0, 24);
}
