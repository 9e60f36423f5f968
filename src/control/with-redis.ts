import type { ControlDeps } from './control-deps.js';
import { redisUnavailable } from './control-error.js';

export interface WithRedisOptions {
  /** False for work that must not be abandoned half-way (queuing a batch); it then only checks the connection. */
  timeout?: boolean;
}

/** ioredis states of a connection that was lost or refused; 'connecting' and 'connect' are a start, not an outage. */
const DOWN_STATES: ReadonlySet<string> = new Set(['close', 'reconnecting', 'end']);

export function isRedisDown(status: string): boolean {
  return DOWN_STATES.has(status);
}

/**
 * Runs Redis work for a request, or answers 503 at once: the shared connection waits through a Redis restart rather
 * than failing (what workers need), but an HTTP caller should hear "Redis is down" instead of hanging.
 */
export async function withRedis<T>(deps: ControlDeps, work: () => Promise<T>, options: WithRedisOptions = {}): Promise<T> {
  const { redis } = deps.batches;
  if (isRedisDown(redis.status)) throw redisUnavailable(`the connection is ${redis.status}`);
  if (options.timeout === false) return work();
  const timeoutMs = deps.redisTimeoutMs ?? 5000;
  return withTimeout(work(), timeoutMs, () => redisUnavailable(`no answer within ${timeoutMs} ms`));
}

/** `work`, or the error of `onTimeout` once `timeoutMs` passed; the timer never outlives the race. */
export async function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
