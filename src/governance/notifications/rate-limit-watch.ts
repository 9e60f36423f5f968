import type { Logger } from '../../core/logger.js';
import type { QueueKeys } from '../../queue/queue-keys.js';
import type { RedisClient } from '../../queue/redis/lua-script.js';
import type { Notifier } from './notification-event.js';

export interface RateLimitWatchOptions {
  redis: RedisClient;
  keys: Pick<QueueKeys, 'rateLimitedWatch'>;
  notifier: Notifier;
  /** The token's budget key (never the token). */
  tokenKey: string;
  /** 429s within one minute, fleet-wide, after which `budget.paused` is sent (notifications.rateLimitedAfter). */
  threshold: number;
  target: string;
  sim: boolean;
  logger: Logger;
}

/**
 * Counts 429 answers per token and minute across the fleet (one Redis counter per minute); the answer that reaches the
 * threshold sends one `budget.paused`: the fleet is pausing again and again, so something else spends this token's
 * limit (another integration) or the rate is set too high. Called from the client's response hook; never throws.
 */
export function createRateLimitWatch(options: RateLimitWatchOptions): (status: number) => void {
  return (status) => {
    if (status !== 429) return;
    const minute = Math.floor(Date.now() / 60_000);
    const key = options.keys.rateLimitedWatch(options.tokenKey, minute);
    void (async () => {
      const count = await options.redis.incr(key);
      if (count === 1) await options.redis.expire(key, 180);
      if (count !== options.threshold) return;
      await options.notifier.notify({
        id: `budget.paused:${options.tokenKey}:${minute}`,
        type: 'budget.paused',
        title: `The service answered ${count} × 429 within a minute: the fleet keeps pausing`,
        text: [
          `Workers using this access token were rate limited ${count} times this minute and paused each time (no attempt is spent, rows wait).`,
          'Something else may be spending the same limit (another integration on this token), or SEATFLOW_RATE_LIMIT is higher than the service allows.',
        ].join('\n'),
        target: options.target,
        sim: options.sim,
        data: { tokenKey: options.tokenKey, rateLimited: count, minute: new Date(minute * 60_000).toISOString() },
      });
    })().catch((error: unknown) => options.logger.warn({ err: error }, 'could not count a 429 for notifications'));
  };
}
