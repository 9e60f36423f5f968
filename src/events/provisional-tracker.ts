import { z } from 'zod';
import { eventNameOf, USER_EVENT, type CallbackEvent, type User } from '../contract/index.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { EventKeys } from './event-keys.js';
import { writeTogether, type RedisCommand } from '../queue/redis/write-together.js';

/** A Provisional Member and the end of their review period (docs/service.md#provisional-members). */
export const provisionalSeatSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  planId: z.number().int(),
  /** ISO: when the service drops the seat to a free one unless a System Admin upgrades it. */
  expiresAt: z.string(),
  /** Where seatflow learned it: an event, or a read of the plan (`webhooks subscribe`, `provisional --refresh`). */
  from: z.enum(['event', 'read']),
  /** ISO: when it was learned. */
  seenAt: z.string(),
});
export type ProvisionalSeat = z.infer<typeof provisionalSeatSchema>;

export interface ProvisionalTracker {
  /** Keeps up with an event of the plan: a Provisional Member seat is tracked, any other seat or a removal ends it. */
  observe(event: CallbackEvent, planId: number, now: number): Promise<void>;
  /** Replaces everything tracked with a read of the plan's Provisional Members. */
  replace(users: readonly User[], planId: number, now: number): Promise<number>;
  /** Every Provisional Member tracked, soonest expiry first. */
  list(): Promise<ProvisionalSeat[]>;
}

export function createProvisionalTracker(redis: RedisClient, keys: Pick<EventKeys, 'provisional' | 'provisionalByExpiry'>): ProvisionalTracker {
  const tracking = (seat: ProvisionalSeat): RedisCommand[] => [
    ['HSET', keys.provisional, seat.userId, JSON.stringify(seat)],
    ['ZADD', keys.provisionalByExpiry, Date.parse(seat.expiresAt), seat.userId],
  ];
  async function put(seat: ProvisionalSeat): Promise<void> {
    await writeTogether(redis, [keys.provisional, keys.provisionalByExpiry], tracking(seat));
  }
  async function drop(userId: number): Promise<void> {
    await writeTogether(redis, [keys.provisional, keys.provisionalByExpiry], [['HDEL', keys.provisional, userId], ['ZREM', keys.provisionalByExpiry, userId]]);
  }
  return {
    async observe(event, planId, now) {
      if (event.objectType !== 'user' || event.id === undefined) return;
      const name = eventNameOf(event);
      if (name === USER_EVENT.removed) return drop(event.id);
      if (name !== USER_EVENT.seatTypeUpdated) return;
      const expiresAt = event.provisionalExpirationDate ?? undefined;
      if (event.seatType !== 'PROVISIONAL_MEMBER' || expiresAt === undefined || Number.isNaN(Date.parse(expiresAt))) return drop(event.id);
      await put({ userId: event.id, email: (event.email ?? '').toLowerCase(), planId, expiresAt, from: 'event', seenAt: new Date(now).toISOString() });
    },
    async replace(users, planId, now) {
      const seats = users.flatMap((user): ProvisionalSeat[] => {
        const until = user.provisionalExpirationDate;
        if (user.seatType !== 'PROVISIONAL_MEMBER' || until === undefined || until === null) return [];
        const expiresAt = typeof until === 'number' ? new Date(until).toISOString() : until;
        return [{ userId: user.id, email: user.email.toLowerCase(), planId, expiresAt, from: 'read', seenAt: new Date(now).toISOString() }];
      });
      await writeTogether(redis, [keys.provisional, keys.provisionalByExpiry], [['DEL', keys.provisional, keys.provisionalByExpiry], ...seats.flatMap(tracking)]);
      return seats.length;
    },
    async list() {
      const ids = await redis.zrange(keys.provisionalByExpiry, 0, -1);
      if (ids.length === 0) return [];
      const values = await redis.hmget(keys.provisional, ...ids);
      return values.flatMap((value) => (value === null ? [] : [provisionalSeatSchema.parse(JSON.parse(value))]));
    },
  };
}

/** How many are tracked, how many expire within `withinMs`, and how many are past their date (the service not heard from yet). */
export function provisionalCounts(seats: readonly ProvisionalSeat[], now: number, withinMs: number): { total: number; expiringSoon: number; pastDue: number } {
  const at = (seat: ProvisionalSeat) => Date.parse(seat.expiresAt);
  return {
    total: seats.length,
    expiringSoon: seats.filter((seat) => at(seat) > now && at(seat) - now <= withinMs).length,
    pastDue: seats.filter((seat) => at(seat) <= now).length,
  };
}
