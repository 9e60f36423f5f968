import type { Logger } from '../../core/logger.js';

/**
 * What the messages of a connection to Redis that failed or went away look like (ioredis and Node's sockets; behind
 * Sentinel, ioredis's "All sentinels are unreachable" while no sentinel answers).
 */
export const CONNECTION_LOST = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ECONNRESET|EPIPE|Connection is closed|^no answer within|All sentinels are unreachable/i;

/** True for an error that only says the connection to Redis is down (the client reconnects on its own). */
export function isConnectionLost(error: unknown): boolean {
  return error instanceof Error && CONNECTION_LOST.test(error.message);
}

/**
 * The `error` listener of a BullMQ Worker or Queue. While Redis is away each of them reports every reconnection attempt
 * (dozens a minute, each with a stack): those go to debug, since the Redis watch of the process (redis-watchdog.ts)
 * says once that Redis went and once that it is back. Any other error is a warning.
 */
export function logBullmqError(logger: Logger, what: string): (error: Error) => void {
  return (error) => {
    if (isConnectionLost(error)) logger.debug({ err: error }, `${what} connection error`);
    else logger.warn({ err: error }, `${what} error`);
  };
}
