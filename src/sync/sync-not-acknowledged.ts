import { NoReplicaError } from '../queue/redis/replicated-write.js';

/**
 * A sync refused as not acknowledged: no Redis replica took one of its workflows in time. What it made may still be
 * kept and run as its report says (the workflow ids are the run's); the same export sent again finds it.
 */
export class SyncNotAcknowledgedError extends NoReplicaError {
  constructor(
    cause: NoReplicaError,
    readonly runId: string,
    readonly report: { csv: string; json: string },
  ) {
    super(cause.code, `sync ${runId} was not acknowledged: ${cause.message}`, {
      retryable: true,
      cause,
      hint: `it may still run as its plan report says (${report.csv}); sending the same export again is safe and finds it`,
    });
  }
}
