import { NoReplicaError } from '../queue/redis/replicated-write.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';

/**
 * A submission's queue step for the API: when no Redis replica took it in time it is refused (503 REDIS_NO_REPLICA)
 * with what it is (`details`: its id and the plan it would run), since the master may still keep and run it: the
 * caller sees what may happen, and that sending it again is safe (it finds what the first made).
 */
export async function unlessUnreplicated<T>(work: () => Promise<T>, details: (error: NoReplicaError) => Record<string, unknown>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof NoReplicaError)) throw error;
    throw new ControlError(503, CONTROL_ERROR_CODES.redisNoReplica, error.message, {
      retryAfterSeconds: 5,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      details: details(error),
    });
  }
}
