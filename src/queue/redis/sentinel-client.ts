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
  /** The connection that asks a sentinel who the master is (onNamedMaster), and which sentinel to ask first. */
  private asker: Redis | undefined;
  private askerIndex = 0;

  constructor(options: RedisOptions) {
    super(options);
    const listeners = (options.sentinels ?? []).map((sentinel) => {
      const listener = new Redis({
        ...sentinelAddress(options, sentinel),
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
      this.asker?.disconnect();
    });
  }

  /**
   * Whether this connection reaches the master the sentinels name now. False while it is on a master they replaced: a
   * planned failover's old master takes writes for seconds, then drops them, and a switch announcement can be missed
   * (a listener reconnecting). Undefined when it cannot tell (not connected, no sentinel answers). Asks one sentinel
   * on a connection of its own (the listeners are subscribed, and can send nothing else).
   */
  async onNamedMaster(): Promise<boolean | undefined> {
    const socket = this.stream as { remoteAddress?: string; remotePort?: number } | undefined;
    if (this.status !== 'ready' || socket?.remotePort === undefined) return undefined;
    const sentinels = this.options.sentinels ?? [];
    for (let i = 0; i < sentinels.length; i += 1) {
      const index = (this.askerIndex + i) % sentinels.length;
      try {
        this.asker ??= this.sentinelConnection(sentinels[index]!);
        const answer = (await this.asker.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.options.name ?? '')) as [string, string] | null;
        if (answer === null) return undefined;
        const named = natResolved(this.options.natMap, { host: answer[0], port: Number(answer[1]) });
        return named.port === socket.remotePort && sameHost(named.host, socket.remoteAddress);
      } catch {
        // That sentinel does not answer: the next one is asked, on a connection of its own.
        this.asker?.disconnect();
        this.asker = undefined;
        this.askerIndex = index + 1;
      }
    }
    return undefined;
  }

  private sentinelConnection(sentinel: Partial<{ host: string; port: number }>): Redis {
    const asker = new Redis({
      ...sentinelAddress(this.options, sentinel),
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      retryStrategy: () => null,
    });
    asker.on('error', () => undefined);
    return asker;
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

/** How to reach one sentinel of the client's set: its address, and the sentinels' credentials and TLS. */
function sentinelAddress(options: RedisOptions, sentinel: Partial<{ host: string; port: number }>): RedisOptions {
  return {
    host: sentinel.host ?? '127.0.0.1',
    port: sentinel.port ?? 26379,
    ...(options.sentinelUsername !== undefined ? { username: options.sentinelUsername } : {}),
    ...(options.sentinelPassword !== undefined ? { password: options.sentinelPassword } : {}),
    ...(options.enableTLSForSentinelMode === true && options.tls !== undefined ? { tls: options.tls } : {}),
  };
}

/** The address a client connects to for one the sentinels name, through the NAT map as ioredis applies it. */
function natResolved(natMap: RedisOptions['natMap'], item: { host: string; port: number }): { host: string; port: number } {
  // ioredis's default is null.
  if (natMap === undefined || natMap === null) return item;
  const key = `${item.host}:${item.port}`;
  return (typeof natMap === 'function' ? natMap(key) : natMap[key]) ?? item;
}

/** Whether a host the sentinels name is the address a socket is connected to (IPv4 may show IPv6-mapped). */
function sameHost(named: string, connected: string | undefined): boolean {
  if (connected === undefined) return true;
  const plain = (address: string) => address.replace(/^::ffff:/, '');
  if (plain(named) === plain(connected)) return true;
  // A host name, not an address: what it resolved to is not known here, so only the port tells.
  return !/^[\d.:]+$/.test(named);
}
