import type { RedisClient } from '../../queue/redis/lua-script.js';

/** Where open dashboard sessions are kept, so that signing out ends one on the server. */
export interface DashboardSessionStore {
  /** Records an open session until `expiresAtMs`. */
  start(id: string, expiresAtMs: number): Promise<void>;
  /** Whether the session is open: started, not ended, not expired. */
  isActive(id: string): Promise<boolean>;
  end(id: string): Promise<void>;
}

/**
 * Sessions in Redis, one key per session that expires with it: every `seatflow serve` of the same Redis (behind a
 * load balancer, or after a restart) knows the same sessions, and a sign-out holds for all of them.
 */
export function createRedisSessionStore(redis: Pick<RedisClient, 'set' | 'exists' | 'del'>, keyOf: (id: string) => string, now: () => number = Date.now): DashboardSessionStore {
  return {
    async start(id, expiresAtMs) {
      await redis.set(keyOf(id), '1', 'PX', Math.max(1, expiresAtMs - now()));
    },
    async isActive(id) {
      return (await redis.exists(keyOf(id))) === 1;
    },
    async end(id) {
      await redis.del(keyOf(id));
    },
  };
}

/** Sessions in this process's memory: for a server built without Redis (tests); a restart ends every session. */
export function createMemorySessionStore(now: () => number = Date.now): DashboardSessionStore {
  const sessions = new Map<string, number>();
  return {
    async start(id, expiresAtMs) {
      for (const [other, expiry] of sessions) if (expiry <= now()) sessions.delete(other);
      sessions.set(id, expiresAtMs);
    },
    async isActive(id) {
      const expiry = sessions.get(id);
      return expiry !== undefined && expiry > now();
    },
    async end(id) {
      sessions.delete(id);
    },
  };
}
