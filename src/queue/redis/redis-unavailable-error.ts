import { SeatflowError } from '../../core/seatflow-error.js';

/** Exit code of a command that could not reach Redis: distinct from "some rows failed" (1) and "refused" (2). */
export const REDIS_UNAVAILABLE_EXIT_CODE = 3;

/** Redis cannot be reached or does not answer: nothing was queued or changed. */
export class RedisUnavailableError extends SeatflowError {
  readonly exitCode = REDIS_UNAVAILABLE_EXIT_CODE;
}
