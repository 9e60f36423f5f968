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
 * switch reconnects a client that is connected; one that is connecting (it may have asked the sentinels just before
 * the switch, and be on its way to the old master) reconnects once connected.
 */
export class SentinelClient extends Redis {
  /** Switches of this master announced so far, and how many there were when this connection began. */
  private switches = 0;
  private switchesAtConnect = 0;

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
        if (message.split(' ')[0] === options.name) this.switchAnnounced();
      });
      listener.subscribe('+switch-master').catch(() => undefined);
      return listener;
    });
    this.on('connecting', () => {
      this.switchesAtConnect = this.switches;
    });
    // Checked when connected (before the ready check, so before the commands queued meanwhile are sent) and again
    // when ready (a switch announced during the ready check).
    const recheck = () => {
      if (this.switches !== this.switchesAtConnect) this.disconnect(true);
    };
    this.on('connect', recheck);
    this.on('ready', recheck);
    this.once('end', () => {
      for (const listener of listeners) listener.disconnect();
    });
  }

  /** A sentinel announced a new master: a connected client asks the sentinels again; a connecting one, once connected. */
  switchAnnounced(): void {
    this.switches += 1;
    if (this.status === 'ready') this.disconnect(true);
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new SentinelClient({ ...this.options, ...override });
  }
}
