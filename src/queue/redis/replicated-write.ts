import type { Logger } from '../../core/logger.js';
import type { RedisClient, ReplicaAcks } from './lua-script.js';
import { SentinelClient } from './sentinel-client.js';

/** How long a write keeps being made again while no replica acknowledges it: a planned failover's window and more. */
export const REPLICATION_PATIENCE_MS = 10_000;

/** After a write no replica took within the patience, how long later writes go on without waiting (replicas down). */
export const UNREPLICATED_QUIET_MS = 30_000;

/**
 * Whether writes still wait for replicas: once one found none in time, the next ones do not for UNREPLICATED_QUIET_MS
 * (a replica down, or a new master whose replica is still syncing, would cost every write the whole wait).
 */
export interface ReplicaQuiet {
  waiting(): boolean;
  /** A write found no replica in time. */
  missed(): void;
}

export function createReplicaQuiet(now: () => number = Date.now): ReplicaQuiet {
  let quietUntil = -Infinity;
  return {
    waiting: () => now() >= quietUntil,
    missed() {
      quietUntil = now() + UNREPLICATED_QUIET_MS;
    },
  };
}

const PAUSE_BETWEEN_TRIES_MS = 250;

export interface ReplicatedWrites {
  /**
   * Makes `write` (which must be idempotent: it may run several times) and waits until `replicas.count` replicas hold
   * it. When none acknowledges within `replicas.timeoutMs`, the master this client reaches may be on its way out (a
   * planned failover: demoted, it drops what it took since the promotion) or its replica lagging: the write is made
   * again, on whatever master the client reaches by then, until a replica acknowledges or the patience runs out.
   * `routeKey` is a key the write touches: on a cluster, WAIT goes to that key's node (where the write went). Resolves
   * whether a replica holds it; false also while replicas were found missing a moment ago (nothing waits then).
   */
  write(routeKey: string, write: () => Promise<unknown>): Promise<boolean>;
}

export interface ReplicatedWritesOptions {
  /** The connection `write` uses: WAIT counts the writes this connection made. */
  redis: RedisClient;
  replicas: ReplicaAcks;
  logger: Logger;
  /** What the write is, for the warning when no replica took it. */
  what: string;
  patienceMs?: number;
  now?: () => number;
}

/**
 * Writes that must survive a failover before seatflow acts on them or answers for them (the own-change ledger before
 * a call, a callback before the service is told it was taken). Without replicas (a single Redis) a write is made once.
 */
export function createReplicatedWrites(options: ReplicatedWritesOptions): ReplicatedWrites {
  const { redis, replicas, logger } = options;
  const patienceMs = options.patienceMs ?? REPLICATION_PATIENCE_MS;
  const now = options.now ?? Date.now;
  const quiet = createReplicaQuiet(now);

  const acknowledged = async (routeKey: string): Promise<number> => {
    const replies = await redis.pipeline().exists(routeKey).wait(replicas.count, replicas.timeoutMs).exec();
    const [, waited] = replies ?? [];
    if (waited?.[0]) throw waited[0];
    return Number(waited?.[1] ?? 0);
  };

  /**
   * Behind Sentinel: whether the client is on a master the sentinels have replaced (it missed the switch, or the switch
   * is under way). A write there is dropped when that server is demoted, so the client connects again (asking the
   * sentinels) and the write is made again. Elsewhere nothing can tell: false.
   */
  const onReplacedMaster = async (): Promise<boolean> => {
    if (!(redis instanceof SentinelClient) || (await redis.onNamedMaster()) !== false) return false;
    logger.warn({ what: options.what }, 'this connection is on a Redis master the sentinels have replaced: connecting again, and making the write again');
    redis.disconnect(true);
    return true;
  };

  return {
    async write(routeKey, write) {
      if (replicas.count <= 0) {
        await write();
        return true;
      }
      // While replicas are missing nothing waits for one, but a write on a replaced master is still made again.
      if (!quiet.waiting()) {
        await write();
        if (!(await onReplacedMaster())) return false;
      }
      const started = now();
      for (;;) {
        try {
          await write();
          if ((await acknowledged(routeKey)) >= replicas.count) return true;
        } catch (error) {
          // The connection closed under the write (a failover's master demoted and its clients dropped): made again
          // on the master the client reaches next, within the patience.
          if (now() - started >= patienceMs) throw error;
        }
        // On a replaced master: connected again, the write is made again, within the same patience (a sentinel that
        // keeps naming another address than the one reached, as behind an unmapped NAT, must not hold the write forever).
        if (now() - started < patienceMs && (await onReplacedMaster())) continue;
        // Another write ran out of patience meanwhile: replicas are missing, this one stops waiting too.
        if (!quiet.waiting()) return false;
        if (now() - started >= patienceMs) {
          quiet.missed();
          logger.warn({ what: options.what, wanted: replicas.count, patienceMs }, 'no Redis replica took a write in time; going on without waiting for replicas for 30 s (a failover now could lose such writes)');
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_TRIES_MS));
      }
    },
  };
}
