import { z } from 'zod';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { EventKeys } from './event-keys.js';
import { writeTogether } from '../queue/redis/write-together.js';

/**
 * The target's subscription to its plan's events (docs/events.md): the plan webhook seatflow made, where it sends, the
 * shared secret callbacks are signed with, and the account seatflow acts as (its own changes are told apart by it).
 * Kept in Redis, where every seatflow process of the target reads it; the secret never leaves it but to verify.
 */
export const subscriptionSchema = z.object({
  webhookId: z.coerce.number().int(),
  planId: z.coerce.number().int(),
  callbackUrl: z.string(),
  /** The user the access token acts for: changes it made may be seatflow's. */
  ownUserId: z.coerce.number().int(),
  ownEmail: z.string(),
  secret: z.string().min(1),
  /** The secret before the last rotation, still taken until `previousUntil` (epoch ms): callbacks already on their way. */
  previousSecret: z.string().optional(),
  previousUntil: z.coerce.number().optional(),
  createdAt: z.string(),
  rotatedAt: z.string().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export interface SubscriptionStore {
  get(): Promise<Subscription | undefined>;
  put(subscription: Subscription): Promise<void>;
  /** A new secret: the current one stays valid for `graceMs` more, for callbacks signed before the rotation. */
  rotate(secret: string, now: number, graceMs: number): Promise<Subscription>;
  /** The secret read back from the service (someone rotated it elsewhere, or a rotation's last step was lost). */
  adopt(secret: string, now: number, graceMs: number): Promise<void>;
  remove(): Promise<void>;
}

export function createSubscriptionStore(redis: RedisClient, keys: Pick<EventKeys, 'subscription'>): SubscriptionStore {
  async function get(): Promise<Subscription | undefined> {
    const raw = await redis.hgetall(keys.subscription);
    return raw.webhookId === undefined ? undefined : subscriptionSchema.parse(raw);
  }
  async function replaceSecret(secret: string, now: number, graceMs: number): Promise<Subscription> {
    const current = await get();
    if (current === undefined) throw new Error('there is no subscription to rotate');
    if (current.secret === secret) return current;
    const next: Subscription = { ...current, secret, previousSecret: current.secret, previousUntil: now + graceMs, rotatedAt: new Date(now).toISOString() };
    await redis.hset(keys.subscription, { secret, previousSecret: current.secret, previousUntil: String(now + graceMs), rotatedAt: next.rotatedAt });
    return next;
  }
  return {
    get,
    async put(subscription) {
      const fields = Object.fromEntries(Object.entries(subscription).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
      await writeTogether(redis, [keys.subscription], [['DEL', keys.subscription], ['HSET', keys.subscription, ...Object.entries(fields).flat()]]);
    },
    rotate: replaceSecret,
    async adopt(secret, now, graceMs) {
      await replaceSecret(secret, now, graceMs);
    },
    async remove() {
      await redis.del(keys.subscription);
    },
  };
}

/** The secrets a callback may be signed with now: the current one, and the one before while its grace lasts. */
export function secretsOf(subscription: Subscription, now: number): string[] {
  const previous = subscription.previousSecret !== undefined && (subscription.previousUntil ?? 0) > now ? [subscription.previousSecret] : [];
  return [subscription.secret, ...previous];
}
