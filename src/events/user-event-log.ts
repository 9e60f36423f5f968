import type { RedisClient } from '../queue/redis/lua-script.js';
import type { ChangeWitness, HeardEvent } from '../queue/events-since-attempt.js';
import type { EventKeys } from './event-keys.js';
import { writeTogether } from '../queue/redis/write-together.js';

/**
 * Each user's recent events as seatflow took them in, whoever made them: what a row whose answer was lost reads to
 * tell "my change never landed" from "it landed and someone undid it" (docs/batches.md). The
 * event handler of `seatflow serve` writes; the workers read (ChangeWitness).
 */
export interface UserEventLog extends ChangeWitness {
  /** Keeps one handled event of `userId`, stamped with Redis time (the clock a row's first start is on). */
  record(userId: number, heard: HeardEvent): Promise<void>;
}

/** As long as a row may still confirm after a lost answer: its late confirms, a `seatflow retry` days later. */
const KEPT_MS = 7 * 24 * 3600 * 1000;

export function createUserEventLog(redis: RedisClient, keys: Pick<EventKeys, 'userEvents' | 'subscription'>): UserEventLog {
  return {
    async record(userId, heard) {
      const [seconds, micros] = await redis.time();
      // Microseconds kept: the events of one callback are taken in within the same millisecond, and their order counts.
      const now = Number(seconds) * 1000 + Number(micros) / 1000;
      const key = keys.userEvents(userId);
      // The same event recorded again (a handling retried after a crash) is one member: its fields say when it happened.
      await writeTogether(redis, [key], [['ZADD', key, 'NX', now, JSON.stringify(heard)], ['ZREMRANGEBYSCORE', key, '-inf', now - KEPT_MS], ['PEXPIRE', key, KEPT_MS]]);
    },
    async subscribed(planId) {
      const [webhookId, subscribedPlan] = await redis.hmget(keys.subscription, 'webhookId', 'planId');
      return webhookId !== null && (planId === undefined || Number(subscribedPlan) === planId);
    },
    async heardSince(userId, sinceMs) {
      const members = await redis.zrangebyscore(keys.userEvents(userId), sinceMs, '+inf');
      return members.map((member) => JSON.parse(member) as HeardEvent);
    },
  };
}
