import type { RedisClient } from './lua-script.js';

/**
 * The clock that times shared between machines come from: Redis `TIME`, the one clock every worker reads alike. A
 * worker's own clock may be off by any amount; it is used for nothing that another machine compares against.
 */
export interface SharedClock {
  /** Milliseconds since the epoch, as Redis sees it. */
  now(): Promise<number>;
}

export function createRedisClock(redis: RedisClient): SharedClock {
  return {
    async now() {
      const [seconds, micros] = await redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    },
  };
}
