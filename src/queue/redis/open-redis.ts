import path from 'node:path';
import type { ConnectionOptions } from 'bullmq';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { PACKAGE_ROOT } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { startOrJoinEmbeddedRedis } from './embedded-redis.js';
import type { RedisClient, ReplicaAcks } from './lua-script.js';
import { NO_CLUSTER_NODE_ANSWERED, probeCluster } from './probe-cluster.js';
import { probeRedis } from './probe-redis.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';
import { trackRefusedWrites, type RefusedWrites } from './refused-write.js';
import { SentinelClient } from './sentinel-client.js';
import { parseRedisUrl, type RedisTarget } from './redis-target.js';

export { REDIS_UNAVAILABLE_EXIT_CODE, RedisUnavailableError } from './redis-unavailable-error.js';

export interface OpenRedisOptions {
  /** Where Redis is (REDIS_URL or a config section, see redis-target.ts); when absent, `url`, else the embedded server. */
  target?: RedisTarget | undefined;
  /** REDIS_URL; when absent too, the embedded server. */
  url?: string | undefined;
  dataDir: string;
  logger: Logger;
  /** Default config/redis.conf of the package. */
  configFile?: string;
}

/** Where Redis is, and one command connection that waits through a restart or a failover instead of failing. */
export interface RedisHandle {
  kind: RedisTarget['kind'] | 'embedded';
  description: string;
  /** Replicas a row's in-flight marker must reach before its call: one behind Sentinel or on a cluster, else none. */
  replicaAcks: ReplicaAcks;
  /** For seatflow's own commands (records, outcomes, budget). BullMQ opens its own: see `bullmqConnection`. */
  client: RedisClient;
  /**
   * What to give one BullMQ Queue or Worker as `connection`: options for one server (BullMQ opens and closes its
   * connections), a new client for a cluster or Sentinel (closed with this handle). Either way commands wait through a
   * reconnection (maxRetriesPerRequest null, which BullMQ requires of workers).
   */
  bullmqConnection(): ConnectionOptions;
  /** Why Redis refuses the writes that wait for it (too few replicas in sync, a demoted master), while it does. */
  refusingWrites(): string | undefined;
  /** Closes `client` and the clients given to BullMQ, and stops the embedded server when nobody else uses it. */
  close(): Promise<void>;
}

export async function openRedis(options: OpenRedisOptions): Promise<RedisHandle> {
  const target = options.target ?? (options.url !== undefined && options.url !== '' ? parseRedisUrl(options.url) : undefined);
  if (target === undefined) {
    const embedded = await startOrJoinEmbeddedRedis({
      dataDir: options.dataDir,
      configFile: options.configFile ?? path.join(PACKAGE_ROOT, 'config', 'redis.conf'),
      logger: options.logger,
    });
    return handleOf({ kind: 'single', options: embedded.connection, description: embedded.description }, 'embedded', options.logger, embedded.release);
  }
  const problem = await probeTarget(target);
  if (problem !== undefined) {
    throw new RedisUnavailableError('REDIS_UNAVAILABLE', `cannot reach Redis at ${target.description}: ${problem}`, {
      hint: 'Check REDIS_URL (or the redis section of the config file) and that the servers are running and answering (not stopped or overloaded: redis-cli -u REDIS_URL ping); nothing was queued or changed. Unset REDIS_URL to use a private redis-server.',
    });
  }
  return handleOf(target, target.kind, options.logger, async () => undefined);
}

/** How long a command started during a failover keeps probing a cluster or Sentinel set-up before giving up. */
export const FAILOVER_PROBE_MS = 20_000;

/**
 * Undefined when the target answers, else why not. One server: one probe, 3 s. A cluster or Sentinel set-up: a
 * failover leaves it unable to answer for a few seconds (a dead master's slots, a master not yet promoted), and a
 * command started then should wait it out like the workers' connections do, not exit 3: while some node or sentinel
 * answers, it probes again until FAILOVER_PROBE_MS have passed. When none answers at all, nothing is failing over:
 * it gives up at once. Each probe gets 6 s (more hops than one server).
 */
async function probeTarget(target: RedisTarget): Promise<string | undefined> {
  if (target.kind === 'single') return probeRedis(probeOptionsOf(target.options), 3000);
  const deadline = Date.now() + FAILOVER_PROBE_MS;
  for (;;) {
    const problem = target.kind === 'cluster' ? await probeCluster(target, 6000) : await probeRedis(probeOptionsOf(target.options), 6000);
    if (problem === undefined || NOBODY_ANSWERS.test(problem) || Date.now() >= deadline) return problem;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** "No seed node answered" (probe-cluster.ts) and ioredis' "no sentinel answered". */
const NOBODY_ANSWERS = new RegExp(`${NO_CLUSTER_NODE_ANSWERED}|All sentinels are unreachable`, 'i');

function handleOf(target: RedisTarget, kind: RedisHandle['kind'], logger: Logger, release: () => Promise<void>): RedisHandle {
  const bullmqClients: RedisClient[] = [];
  const refused = trackRefusedWrites({ resendReadOnly: target.kind !== 'single' });
  const client = connect(target, refused);
  client.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
  return {
    kind,
    description: target.description,
    // A replica that is down or lagging costs each row at most timeoutMs, then the row goes on (with a warning).
    replicaAcks: { count: target.kind === 'single' ? 0 : 1, timeoutMs: 500 },
    client,
    refusingWrites: refused.refusing,
    bullmqConnection() {
      if (target.kind === 'single') return { ...serverClientOptions(target, refused) };
      const shared = connect(target, refused);
      shared.on('error', (error) => logger.debug({ err: error }, 'redis connection error (BullMQ)'));
      bullmqClients.push(shared);
      return shared;
    },
    async close() {
      await client.quit().catch(() => undefined);
      client.disconnect();
      for (const shared of bullmqClients) shared.disconnect();
      await release();
    },
  };
}

function connect(target: RedisTarget, refused: RefusedWrites): RedisClient {
  if (target.kind === 'cluster') return new Cluster(target.nodes, clusterClientOptions(target.options, refused));
  return target.kind === 'sentinel' ? new SentinelClient(serverClientOptions(target, refused)) : new Redis(serverClientOptions(target, refused));
}

/**
 * maxRetriesPerRequest null: during a Redis restart or failover commands wait for the reconnection rather than
 * failing a row; behind Sentinel, each reconnection asks the sentinels for the current master (and SentinelClient
 * moves as soon as they announce a new one). A write refused unrun (a demoted master, too few replicas in sync) is
 * sent again after a reconnection (refused-write.ts).
 */
function serverClientOptions(target: Exclude<RedisTarget, { kind: 'cluster' }>, refused: RefusedWrites): RedisOptions {
  return { ...target.options, reconnectOnError: refused.reconnectOnError, maxRetriesPerRequest: null };
}

/**
 * A failover takes the cluster a few seconds (node timeout, election): each command waits it out, retrying on
 * CLUSTERDOWN, TRYAGAIN, MOVED and closed connections for up to about ten seconds before failing.
 */
function clusterClientOptions(options: ClusterOptions, refused: RefusedWrites): ClusterOptions {
  return {
    ...options,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 50,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2000),
    redisOptions: { ...options.redisOptions, maxRetriesPerRequest: null, reconnectOnError: refused.reconnectOnError },
  };
}

/** A probe fails at once when no sentinel answers, instead of ioredis asking them again forever. */
function probeOptionsOf(options: RedisOptions): RedisOptions {
  return options.sentinels !== undefined ? { ...options, sentinelRetryStrategy: () => null } : options;
}
