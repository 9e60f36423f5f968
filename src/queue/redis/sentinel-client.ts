import { Redis, type RedisOptions } from 'ioredis';

/**
 * A connection to the master behind Sentinel that moves to the new master the moment the sentinels announce one.
 *
 * A plain ioredis Sentinel connection stays on the old master until that server drops it. After a planned failover
 * (`SENTINEL FAILOVER`, or a managed service's maintenance) the old master keeps accepting writes for about ten seconds
 * before the sentinels demote it, and then discards them: measured here with a loop of writes, most writes of those
 * seconds were lost. So this client listens to `+switch-master` on every sentinel and reconnects (asking the sentinels
 * again) when its master is switched.
 *
 * ioredis's own `failoverDetector` does the same but was not usable: its sentinel connections outlive `quit()` (a
 * finished process never exits), and a switch announced while the client is still reconnecting (after a master crash)
 * aborts that reconnection for good: pending commands fail with "Connection is closed" and the client ends. Here a
 * switch only reconnects a client that is connected; one that is reconnecting asks the sentinels anyway.
 */
export class SentinelClient extends Redis {
  constructor(options: RedisOptions) {
    super(options);
    const listeners = (options.sentinels ?? []).map((sentinel) => {
      const listener = new Redis({
        host: sentinel.host ?? '127.0.0.1',
        port: sentinel.port ?? 26379,
        ...(options.sentinelUsername !== undefined ? { username: options.sentinelUsername } : {}),
        ...(options.sentinelPassword !== undefined ? { password: options.sentinelPassword } : {}),
        ...(options.enableTLSForSentinelMode === true && options.tls !== undefined ? { tls: options.tls } : {}),
        maxRetriesPerRequest: null,
        retryStrategy: (times) => Math.min(200 * times, 2000),
      });
      listener.on('error', () => undefined);
      listener.on('message', (_channel: string, message: string) => {
        if (message.split(' ')[0] === options.name && this.status === 'ready') this.disconnect(true);
      });
      listener.subscribe('+switch-master').catch(() => undefined);
      return listener;
    });
    this.once('end', () => {
      for (const listener of listeners) listener.disconnect();
    });
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new SentinelClient({ ...this.options, ...override });
  }
}
