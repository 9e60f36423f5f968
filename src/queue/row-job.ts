import type { JobsOptions } from 'bullmq';

/** A job names its row; the row itself (action, resolved ids) is kept once in the batch's rows hash. */
export interface RowJobData {
  batchId: string;
  row: number;
  /** Set when the row's retry budget ran out while its change may have applied: the next runs only confirm. */
  confirmLater?: ConfirmLater;
  /**
   * Set when a row whose answer was lost read its change not done while the service's events could still say it
   * landed: until `untilMs` (Redis time) it only looks for them (events-since-attempt.ts), then it is sent again.
   */
  awaitingEvents?: { untilMs: number };
  /** Queued again after its job was lost with no outcome recorded (lost-rows.ts): an earlier attempt may have applied. */
  recovered?: true;
}

/** A confirm-only attempt, later and with its own small budget, for a row whose state is unknown. */
export interface ConfirmLater {
  /** Confirm reads tried so far. */
  tries: number;
  /** The failure that left the row unknown, for its outcome should the change prove not applied. */
  failure: { category: string; message: string; status?: number; errorCode?: number; refId?: string };
}

/** BullMQ job id of a row: `<batch>-<row>`, so a row can never be queued twice. */
export function rowJobId(batchId: string, row: number): string {
  return `${batchId}-${row}`;
}

/**
 * Retries decided by seatflow (backoff, 429) move the job to delayed without spending a BullMQ attempt; BullMQ's own
 * attempts only cover an unexpected error of the machinery itself (e.g. Redis gone mid-job), which is safe to repeat
 * because a row with an outcome is never run again and an interrupted row is confirmed first.
 */
export function rowJobOptions(batchId: string, row: number): JobsOptions {
  return {
    jobId: rowJobId(batchId, row),
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    // Kept a while for Bull Board, and bounded so that the queue's failed count (a metric) cannot only grow.
    removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
  };
}
