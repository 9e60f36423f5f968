import path from 'node:path';
import { longestRequestMs } from '../client/longest-request-ms.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { BeforeRequestInfo } from '../client/smartsheet-client-options.js';
import type { SeatflowMetrics } from '../control/metrics/seatflow-metrics.js';
import { createGovernance, type Governance } from '../governance/governance.js';
import { combineStoreHooks } from '../queue/batch-store.js';
import { createBatchSystem, type BatchSystem, type StartWorkersOptions } from '../queue/batch-system.js';
import { openRedis, RedisUnavailableError, type RedisHandle } from '../queue/redis/open-redis.js';
import { watchRedis, type RedisWatchdog } from '../queue/redis/redis-watchdog.js';
import { redisTargetOf } from '../queue/redis/redis-target.js';
import type { RequestBudget } from '../queue/request-budget.js';
import { readRetryPolicy, withCliRuntime, type CliRuntime } from './cli-runtime.js';
import type { CommonFlags } from './common-options.js';
import { createEventKeys } from '../events/event-keys.js';
import { createOwnChangeLedger } from '../events/own-change-ledger.js';
import { createUserEventLog } from '../events/user-event-log.js';
import { createReplicatedWrites } from '../queue/redis/replicated-write.js';
import { cliActorNameOf } from './cli-actor.js';

/** What the batch commands (run, submit, worker, status, report, retry, cancel) add to the CLI runtime: Redis. */
export interface BatchRuntime {
  redis: RedisHandle;
  system: BatchSystem;
  /** The API base URL, or `sim:<url>` for the embedded reference server (one world per run). */
  target: string;
  /** Approvals, the audit trail and notifications over the same Redis (docs/governance.md). */
  governance: Governance;
}

export interface OpenBatchRuntimeOptions {
  metrics?: SeatflowMetrics;
  /**
   * What the process does when Redis stops answering after it connected: a command gives up past
   * redis.giveUpAfterMs and exits 3 ('give-up', the default); a worker or a server says it waits, and goes on when
   * Redis answers again ('wait'). Either way it says so past redis.warnAfterMs.
   */
  whenRedisStopsAnswering?: 'give-up' | 'wait';
}

/**
 * Opens Redis (REDIS_URL, or the embedded server under the data directory), watches it (see watchRedis) and opens the
 * queue machinery; all are closed with the CLI runtime, queues before the connection.
 */
export async function openBatchRuntime(runtime: CliRuntime, options: OpenBatchRuntimeOptions = {}): Promise<BatchRuntime> {
  const { config, logger } = runtime;
  const redis = await openRedis({ target: redisTargetOf(config.redis), dataDir: config.dataDir, logger });
  runtime.onClose(() => redis.close());
  const watch = watchRedisFor(runtime, redis, options.whenRedisStopsAnswering ?? 'give-up');
  runtime.onClose(() => watch.stop());
  const target = runtime.sim !== undefined ? `sim:${runtime.sim.url}` : config.api.baseUrl;
  const { metrics } = options;
  const sim = runtime.sim !== undefined;
  const governance = createGovernance({ redis, prefix: config.redis.queuePrefix, governance: config.governance, target, sim, logger });
  runtime.onClose(() => governance.close());
  // Every outcome is counted (metrics), appended to the audit trail, and a finished batch is told to its subscribers.
  const hooks = combineStoreHooks(metrics === undefined ? undefined : { onOutcome: metrics.onOutcome }, governance.storeHooks);
  const system = createBatchSystem({ redis, prefix: config.redis.queuePrefix, target, sim, logger, hooks });
  metrics?.watch({ queue: system.queue, store: system.store, target, targetLabel: runtime.targetLabel });
  runtime.onClose(() => system.close());
  await governance.recordConfig(runtime.configFiles, cliActorNameOf(runtime));
  return { redis, system, target, governance };
}

/** Who started this command, for the configuration entry: an ambiguous identity only matters to what it asks for. */
/** One watch per process over the command connection: every wait on Redis is bounded by it (see watchRedis). */
function watchRedisFor(runtime: CliRuntime, redis: RedisHandle, when: 'give-up' | 'wait'): RedisWatchdog {
  const { warnAfterMs, giveUpAfterMs } = runtime.config.redis;
  const seconds = (ms: number): string => String(Math.round(ms / 1000));
  const where = redis.description;
  let refused = false;
  const silence = (): string => {
    const refusing = redis.refusingWrites();
    return refusing === undefined ? 'not answered' : `refused writes (${refusing})`;
  };
  return watchRedis({
    // Refusing the writes sent to it is silence too: a command waits it out, as it waits out a restart.
    ping: async () => {
      await redis.client.ping();
      const refusing = redis.refusingWrites();
      if (refusing !== undefined) throw new Error(`Redis refuses writes: ${refusing}`);
    },
    warnAfterMs,
    giveUpAfterMs: when === 'give-up' ? giveUpAfterMs : undefined,
    onWaiting: (silentMs) => {
      refused = redis.refusingWrites() !== undefined;
      runtime.tell(
        `Redis at ${where} has ${silence()} for ${seconds(silentMs)} s; waiting${when === 'give-up' ? ` (this command gives up after ${seconds(giveUpAfterMs)} s: redis.giveUpAfterMs)` : ''}`,
        { redis: where, silentMs },
      );
    },
    onAnswered: (silentMs) => runtime.tell(`Redis at ${where} ${refused ? 'takes writes' : 'answers'} again, after ${seconds(silentMs)} s; going on`, { redis: where, silentMs }),
    onGiveUp: (silentMs) =>
      runtime.abandon(
        new RedisUnavailableError('REDIS_UNAVAILABLE', redis.refusingWrites() !== undefined ? `Redis at ${where} has ${silence()} for ${seconds(silentMs)} s (redis.giveUpAfterMs)` : `cannot reach Redis at ${where}: no answer for ${seconds(silentMs)} s after it had connected (redis.giveUpAfterMs)`, {
          hint:
            'Check that Redis is running and answering (not stopped or overloaded: redis-cli -u REDIS_URL ping), and, if it refuses writes, that its replica is up and in sync (INFO replication). What was queued stays queued in Redis: ' +
            'when it answers again, `seatflow status` shows each batch and `seatflow worker` takes up its rows (a row cut short is confirmed before it is repeated).',
        }),
      ),
  });
}

/**
 * A client whose every call takes from the fleet-wide budget of its token and reports 429s to it. `retryReads` is for
 * the pre-flight only (GETs, outside the queue); workers' clients never retry, because the queue owns their retries.
 */
export function createBudgetedApi(
  runtime: CliRuntime,
  batch: BatchRuntime,
  options: { retryReads?: boolean; maxRetryElapsedMs?: number; metrics?: SeatflowMetrics } = {},
): { api: SmartsheetApi; budget: RequestBudget } {
  const budget = batch.system.budget({
    accessToken: runtime.config.api.accessToken ?? 'no-token',
    // Each embedded simulation is a service of its own behind the same demo token.
    ...(runtime.sim === undefined ? {} : { service: runtime.sim.url }),
    rate: runtime.config.rateLimit,
  });
  const { metrics } = options;
  metrics?.watch({ budget });
  const retry = readRetryPolicy(runtime.config);
  // Every user-changing call is written to the own-change ledger just before it leaves, so an event it causes is told
  // seatflow's (docs/events.md#whose-change). Before the budget's reservation, not after: a note that waits (for a
  // replica, or through a failover of its Redis) would otherwise hold calls past their reserved place and send them
  // together, over the service's rate.
  const ledger = createOwnChangeLedger(batch.redis.client, createEventKeys(runtime.config.redis.queuePrefix, batch.target), {
    windowMs: runtime.config.events.ownCallWindowMinutes * 60_000,
    replicated: createReplicatedWrites({ redis: batch.redis.client, replicas: batch.redis.replicaAcks, logger: runtime.logger, what: 'own-change ledger' }),
  });
  const beforeRequest = async (info: BeforeRequestInfo) => {
    await ledger.note(info);
    await budget.beforeRequest(info);
  };
  const watch429 = batch.governance.rateLimitWatch(runtime.config.api.accessToken ?? 'no-token');
  const api = runtime.createApi({
    ...(options.retryReads === true ? { retry: { ...retry, maxElapsedMs: Math.min(retry.maxElapsedMs ?? Infinity, options.maxRetryElapsedMs ?? Infinity) } } : {}),
    beforeRequest: metrics === undefined ? beforeRequest : metrics.timeBudgetWait(beforeRequest),
    onResponse: (info) => {
      metrics?.onResponse(info);
      watch429(info.status);
      budget.onResponse(info).catch((error: unknown) => runtime.logger.warn({ err: error }, 'could not record a 429 in Redis'));
    },
  });
  return { api, budget };
}

/**
 * The configured way of working rows: how many at once, the retry budget, how soon a dead worker's rows move, and how
 * long a request of the configured client may still land after it got no answer.
 */
export function workerSettingsOf(runtime: CliRuntime, batch: BatchRuntime): Omit<StartWorkersOptions, 'api' | 'budget' | 'registry'> {
  const { concurrency, lockDurationMs, stalledIntervalMs, lostRowCheckMs } = runtime.config.worker;
  const { recordStateBefore } = runtime.config.governance;
  // After a lost answer, the service's events tell what a read cannot (docs/batches.md); they
  // are there when `seatflow webhooks subscribe` made a subscription for this target, whichever process takes them.
  const witness = createUserEventLog(batch.redis.client, createEventKeys(runtime.config.redis.queuePrefix, batch.target));
  return {
    concurrency,
    policy: runtime.config.retry,
    requestSettleMs: longestRequestMs(runtime.config.api.timeouts),
    lockDurationMs,
    stalledIntervalMs,
    lostRowCheckMs,
    recordStateBefore,
    serviceClock: runtime.serviceClock,
    witness,
    eventWaitMs: runtime.config.events.lostAnswerWaitSeconds * 1000,
  };
}

/** Where `run` and `report` write a batch's report when no file is named; a simulation's report says so in its name. */
export function defaultReportFile(runtime: CliRuntime, batchId: string, sim: boolean): string {
  return path.join(runtime.config.dataDir, 'reports', `${batchId}${sim ? '-simulation' : ''}.csv`);
}

/** For commands that only read or steer batches in Redis (status, report, retry, cancel): no token needed. */
export function withBatchRuntime<T>(flags: CommonFlags, body: (runtime: CliRuntime, batch: BatchRuntime) => Promise<T>): Promise<T> {
  // --sim means nothing here: batches are read from Redis, not from a service.
  return withCliRuntime({ ...flags, sim: false }, { requireToken: false }, async (runtime) => body(runtime, await openBatchRuntime(runtime)));
}
