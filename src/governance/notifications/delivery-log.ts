import { z } from 'zod';
import type { QueueKeys } from '../../queue/queue-keys.js';
import type { RedisClient } from '../../queue/redis/lua-script.js';

/** One try of one delivery, as recorded: whether it arrived, and what the receiver said. */
export const deliverySchema = z.object({
  at: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  destination: z.string(),
  destinationType: z.string(),
  /** 1 for the first try. */
  attempt: z.number().int(),
  ok: z.boolean(),
  /** The HTTP status, or the SMTP reply code. */
  status: z.number().int().optional(),
  error: z.string().optional(),
  /** Whether another try follows (false: delivered, given up, or refused for good). */
  willRetry: z.boolean(),
  ms: z.number(),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** Deliveries kept (newest); older ones are trimmed. A delivery log is for looking into a missed message, not an archive. */
const KEPT = 10_000;

export interface DeliveryLog {
  record(delivery: Delivery): Promise<void>;
  /** Newest first. */
  latest(count: number): Promise<Delivery[]>;
}

export function createDeliveryLog(redis: RedisClient, keys: Pick<QueueKeys, 'deliveries'>): DeliveryLog {
  return {
    async record(delivery) {
      await redis.xadd(keys.deliveries, 'MAXLEN', '~', String(KEPT), '*', 'd', JSON.stringify(deliverySchema.parse(delivery)));
    },
    async latest(count) {
      const entries = await redis.xrevrange(keys.deliveries, '+', '-', 'COUNT', count);
      return entries.map(([, fields]) => deliverySchema.parse(JSON.parse(fields[1] ?? '{}')));
    },
  };
}
