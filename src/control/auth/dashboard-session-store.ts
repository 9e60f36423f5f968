import type { RedisClient } from '../../queue/redis/lua-script.js';

/** Who a session recorded before sessions named their operator signed in as: the control token was the only sign-in. */
const BEFORE_OPERATORS = 'control-token';

/** Where open dashboard sessions are kept, so that signing out ends one on the server. */
export interface DashboardSessionStore {
  /** Records an open session of `operator` until `expiresAtMs`. */
  start(id: string, expiresAtMs: number, operator: string): Promise<void>;
  /** Whether the session is open: started, not ended, not expired. */
  isActive(id: string): Promise<boolean>;
  /** The operator of an open session; undefined when it is not open. */
  operatorOf(id: string): Promise<string | undefined>;
  end(id: string): Promise<void>;
}

/**
 * Sessions in Redis, one key per session that expires with it: every `seatflow serve` of the same Redis (behind a
 * load balancer, or after a restart) knows the same sessions, and a sign-out holds for all of them.
 */
export function createRedisSessionStore(redis: Pick<RedisClient, 'set' | 'get' | 'exists' | 'del'>, keyOf: (id: string) => string, now: () => number = Date.now): DashboardSessionStore {
  return {
    async start(id, expiresAtMs, operator) {
      await redis.set(keyOf(id), operator, 'PX', Math.max(1, expiresAtMs - now()));
    },
    async isActive(id) {
      return (await redis.exists(keyOf(id))) === 1;
    },
    async operatorOf(id) {
      const value = await redis.get(keyOf(id));
      return value === null ? undefined : value === '1' ? BEFORE_OPERATORS : value;
    },
    async end(id) {
      await redis.del(keyOf(id));
    },
  };
}

/** Sessions in this process's memory: for a server built without Redis (tests); a restart ends every session. */
export function createMemorySessionStore(now: () => number = Date.now): DashboardSessionStore {
  const sessions = new Map<string, { expiresAtMs: number; operator: string }>();
  const open = (id: string) => {
    const session = sessions.get(id);
    return session !== undefined && session.expiresAtMs > now() ? session : undefined;
  };
  return {
    async start(id, expiresAtMs, operator) {
      for (const [other, session] of sessions) if (session.expiresAtMs <= now()) sessions.delete(other);
      sessions.set(id, { expiresAtMs, operator });
    },
    async isActive(id) {
      return open(id) !== undefined;
    },
    async operatorOf(id) {
      return open(id)?.operator;
    },
    async end(id) {
      sessions.delete(id);
    },
  };
}
