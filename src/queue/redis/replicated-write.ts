import type { Logger } from '../../core/logger.js';
import type { RedisClient, ReplicaAcks } from './lua-script.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';
import { SentinelClient } from './sentinel-client.js';

/** How long a write keeps being made again while no replica acknowledges it: a planned failover's window and more. */
export const REPLICATION_PATIENCE_MS = 10_000;

/** After a write no replica took within the patience, how long later writes go on without waiting (replicas down). */
export const UNREPLICATED_QUIET_MS = 30_000;

/**
 * How long a write made while replicas are missing still waits for one: long enough for a replica in place to answer,
 * so the first write it takes ends the quiet period (a failover soon after would otherwise find writers not waiting).
 */
export const QUIET_PROBE_MS = 50;

/**
 * Whether writes still wait for replicas: once one found none in time, the next ones do not for UNREPLICATED_QUIET_MS
 * (a replica down, or a new master whose replica is still syncing, would cost every write the whole wait), unless a
 * replica takes one of them meanwhile (`replicasFor` lets each look for QUIET_PROBE_MS).
 */
export interface ReplicaQuiet {
  waiting(): boolean;
  /** A write found no replica in time. */
  missed(): void;
  /** A write made while quiet found its replicas: writes wait for them again. */
  acknowledged(): void;
  /** The replicas a write asks for now: all the wait while waiting, a glance while quiet. */
  replicasFor(acks: ReplicaAcks): ReplicaAcks;
}

export function createReplicaQuiet(now: () => number = Date.now): ReplicaQuiet {
  let quietUntil = -Infinity;
  const waiting = () => now() >= quietUntil;
  return {
    waiting,
    missed() {
      quietUntil = now() + UNREPLICATED_QUIET_MS;
    },
    acknowledged() {
      quietUntil = -Infinity;
    },
    replicasFor: (acks) => (waiting() ? acks : { count: acks.count, timeoutMs: Math.min(acks.timeoutMs, QUIET_PROBE_MS) }),
  };
}

const PAUSE_BETWEEN_TRIES_MS = 250;

/**
 * Behind Sentinel: whether the client is on a master the sentinels have replaced (it missed the switch, or the switch
 * is under way). What it writes there is dropped when that server is demoted, so the client connects again (asking the
 * sentinels), and says so with `then` (what the caller does instead). Elsewhere nothing can tell: false.
 */
export async function leftReplacedMaster(redis: RedisClient, logger: Logger, what: string, then: string): Promise<boolean> {
  return (await leaveIfReplaced(redis, logger, what, then)) === 'replaced';
}

/**
 * leftReplacedMaster, telling also when it cannot tell: `unknown` behind Sentinel when this connection is not ready or
 * no sentinel answers (as while they fail over), `unmanaged` without Sentinel.
 */
export async function leaveIfReplaced(redis: RedisClient, logger: Logger, what: string, then: string): Promise<'replaced' | 'named' | 'unknown' | 'unmanaged'> {
  if (!(redis instanceof SentinelClient)) return 'unmanaged';
  const named = await redis.onNamedMaster();
  if (named === undefined) return 'unknown';
  if (named) return 'named';
  logger.warn({ what }, `this connection is on a Redis master the sentinels have replaced: connecting again, and ${then}`);
  redis.disconnect(true);
  return 'replaced';
}

export interface ReplicatedWrites {
  /**
   * Makes `write` (which must be idempotent: it may run several times) and waits until `replicas.count` replicas hold
   * it. When none acknowledges within `replicas.timeoutMs`, the master this client reaches may be on its way out (a
   * planned failover: demoted, it drops what it took since the promotion) or its replica lagging: the write is made
   * again, on whatever master the client reaches by then, until a replica acknowledges or the patience runs out.
   * `routeKey` is a key the write touches: on a cluster, WAIT goes to that key's node (where the write went). Resolves
   * whether a replica holds it; false also while replicas were found missing a moment ago (nothing waits then).
   * `required`: a write seatflow is about to acknowledge to an operator (a submission) waits even then, and when no
   * replica takes it within the patience it is refused (NoReplicaError) instead of acknowledged unreplicated.
   */
  write(routeKey: string, write: () => Promise<unknown>, mode?: { required: boolean }): Promise<boolean>;
}

/**
 * No Redis replica took a write seatflow was about to acknowledge: it is not acknowledged, though the master may keep
 * it. Made again (a submission is idempotent by its id), it finds what the first made and creates only what is missing.
 */
export class NoReplicaError extends RedisUnavailableError {}

export interface ReplicatedWritesOptions {
  /** The connection `write` uses: WAIT counts the writes this connection made. */
  redis: RedisClient;
  replicas: ReplicaAcks;
  logger: Logger;
  /** What the write is, for the warning when no replica took it. */
  what: string;
  patienceMs?: number;
  now?: () => number;
  /**
   * Whether a connection found on a master the sentinels replaced is dropped to connect again (default). False for a
   * connection another library owns: BullMQ's, dropped so, stayed closed ("Connection is closed", soak seed 6328:
   * every later callback failed). The write then waits out the patience there, and a required one is refused.
   */
  reconnects?: boolean;
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

  const acknowledged = async (routeKey: string, timeoutMs = replicas.timeoutMs): Promise<number> => {
    const replies = await redis.pipeline().exists(routeKey).wait(replicas.count, timeoutMs).exec();
    const [, waited] = replies ?? [];
    if (waited?.[0]) throw waited[0];
    return Number(waited?.[1] ?? 0);
  };

  const onReplacedMaster = async () => options.reconnects !== false && (await leftReplacedMaster(redis, logger, options.what, 'making the write again'));

  return {
    async write(routeKey, write, mode) {
      const required = mode?.required === true;
      if (replicas.count <= 0) {
        await write();
        return true;
      }
      // While replicas are missing nothing waits for one (but a glance: one back ends the quiet), and a write on a
      // replaced master is still made again.
      if (!required && !quiet.waiting()) {
        await write();
        if ((await acknowledged(routeKey, quiet.replicasFor(replicas).timeoutMs)) >= replicas.count) {
          quiet.acknowledged();
          return true;
        }
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
        if (!required && !quiet.waiting()) return false;
        if (now() - started >= patienceMs) {
          quiet.missed();
          if (required) throw noReplica(options.what, patienceMs);
          logger.warn({ what: options.what, wanted: replicas.count, patienceMs }, 'no Redis replica took a write in time; going on without waiting for replicas for 30 s (a failover now could lose such writes)');
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_TRIES_MS));
      }
    },
  };
}

function noReplica(what: string, patienceMs: number): NoReplicaError {
  return new NoReplicaError(
    'REDIS_NO_REPLICA',
    `no Redis replica took the ${what} within ${patienceMs / 1000} s, so it is not acknowledged: a failover now could lose it`,
    { retryable: true, hint: 'it may still be kept and run (its status shows it); submitting it again is safe and finds it. If a replica is down or resyncing, bring it back' },
  );
}
