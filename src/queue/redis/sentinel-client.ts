import { Redis, type RedisOptions } from 'ioredis';

/**
 * A connection to the master behind Sentinel that follows a failover the moment the sentinels announce it.
 *
 * Without `failoverDetector`, ioredis stays on the old master until that server drops it. After a planned failover
 * (`SENTINEL FAILOVER`, or a managed service's maintenance) the old master keeps accepting writes for about ten
 * seconds before the sentinels demote it, and then discards them: measured here, most writes of those seconds were
 * lost. With it, ioredis subscribes to `+switch-master` on the sentinels and moves at once.
 *
 * ioredis cleans the detector's sentinel connections up only on `disconnect()`, not after `quit()`, which would keep
 * a finished process alive; so this client disconnects once it has ended, and so do its duplicates (BullMQ duplicates
 * a worker's connection for its blocking commands and closes them with `quit()`).
 */
export class SentinelClient extends Redis {
  constructor(options: RedisOptions) {
    super({ ...options, failoverDetector: true });
    this.once('end', () => this.disconnect());
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new SentinelClient({ ...this.options, ...override });
  }
}
