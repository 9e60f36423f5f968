import type { RedisClient } from './lua-script.js';

/**
 * Sets `key` to `value` only where it has none (SET NX, expiring after `ttlMs` when given): true when this call set
 * it. `value` must be this call's own (a UUID, the exact JSON written): when NX answers null, a key holding it was set
 * by this call, whose answer was lost and which ioredis sent again on reconnecting.
 */
export async function setOnce(redis: RedisClient, key: string, value: string, ttlMs?: number): Promise<boolean> {
  const set = ttlMs === undefined ? await redis.set(key, value, 'NX') : await redis.set(key, value, 'PX', ttlMs, 'NX');
  return set !== null || (await redis.get(key)) === value;
}
