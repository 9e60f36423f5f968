/**
 * The reason a row's AbortSignal fires when BullMQ could not renew this worker's lock on the row (the worker was
 * frozen, or its event loop blocked, past `worker.lockDurationMs`): another worker may own the row now. The row's
 * in-flight call is aborted and this worker records nothing for it; the new owner confirms before acting.
 */
export class RowLockLostError extends Error {
  override readonly name = 'RowLockLostError';

  constructor(jobId: string) {
    super(`lost the lock on job ${jobId}: another worker may own the row now`);
  }
}
