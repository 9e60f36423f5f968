import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { QueueKeys } from './queue-keys.js';
import { tokenKey } from './queue-keys.js';
import { scriptOf, type RedisClient, type ReplicaAcks } from './redis/lua-script.js';
import { createReplicaQuiet, type ReplicaQuiet } from './redis/replicated-write.js';
import { CONFIRM, PAUSE, READ, RECORD_429, RESERVE } from './request-budget-scripts.js';

/**
 * One request budget per access token, shared by every worker on every machine through Redis.
 *
 * It models the service's own meter, a leaky bucket per token (docs/service.md#rate-limits: 300 calls a minute, and a full bucket
 * takes a minute's worth at once): a fleet with a full bucket sends as fast as its workers go until the bucket is
 * spent, then at the refill rate less the headroom. How full the service's bucket really is cannot be known (other
 * tools may share the token), so a 429 corrects the model: the bucket is recorded empty, the capacity (or the rate,
 * if the fleet was already pacing) is lowered, every worker of the token waits, and both are raised again slowly
 * while no 429 comes. The state lives in Redis under the token's hash and outlives any worker (request-budget-scripts.ts).
 * rate-limiter-flexible was considered: its Redis limiters count fixed windows and learn nothing from a 429.
 */
export interface BudgetRate {
  /** Calls per window and the share kept unused; e.g. 300 per 60 s with 0.05 headroom refills 285 per minute. */
  requests: number;
  perSeconds: number;
  headroom: number;
  /** The bucket's capacity in calls: `auto` (default) = `requests`, one window's worth; 1 = even pacing. */
  burst?: number | 'auto' | undefined;
}

export interface RequestBudgetOptions {
  redis: RedisClient;
  keys: QueueKeys;
  accessToken: string;
  /**
   * The service instance, when one token string stands for several: every embedded simulation answers the same demo
   * token, each with a full bucket of its own, so its budget is its own too (a spent simulation's budget, kept in the
   * home's Redis, made the next `--sim` command wait for a bucket that was never spent). A real token belongs to one
   * service: without this, the budget is the token's, shared by every process that holds it.
   */
  service?: string;
  rate: BudgetRate;
  clock?: Clock;
  /**
   * Replicas that must hold a reservation before the call goes out (RedisHandle.replicaAcks; none by default). A
   * reservation a failover lost would be granted again: the fleet would send more than the service's bucket holds.
   */
  replicaAcks?: ReplicaAcks | undefined;
  logger?: Logger;
}

/** What the client's `beforeRequest` hook passes. */
export interface RequestInfo {
  operation: string;
  method?: string;
  /** Budget units; uploads cost 10. Default 1. */
  cost?: number;
  signal?: AbortSignal;
}

/** What the client's `onResponse` hook passes. */
export interface ResponseInfo {
  operation: string;
  status?: number | undefined;
  errorCode?: number | undefined;
  retryAfterMs?: number | undefined;
  /** How long the call took: tells a 429 of a call sent before the last recorded 429 from a new one. */
  durationMs?: number;
}

/** What the budget believes now, fleet-wide. */
export interface BudgetState {
  /** Units in the bucket (0 = full budget available; `capacity` = spent). */
  level: number;
  /** Learned capacity (the configured one until a 429 lowers it). */
  capacity: number;
  /** Learned refill, calls per second before the headroom. */
  ratePerSecond: number;
  pausedForMs: number;
}

/** Calls the fleet could send now without waiting: what is left in the learned bucket, none while paused after a 429. */
export function availableCallsOf(state: BudgetState): number {
  return state.pausedForMs > 0 ? 0 : Math.max(0, Math.floor(state.capacity - state.level));
}

export interface RequestBudget {
  /** Waits for the fleet-wide pause to end and for room in the bucket. Plug into the client's beforeRequest. */
  beforeRequest(info: RequestInfo): Promise<void>;
  /** Records a 429 (counted once; the fleet pauses and the model corrects itself). Plug into the client's onResponse. */
  onResponse(info: ResponseInfo): Promise<void>;
  /** Pauses every worker using this token for `ms` (extends a longer pause, never shortens it); counts nothing. */
  pause(ms: number): Promise<void>;
  /** Milliseconds until the current pause ends; 0 when not paused. */
  pausedFor(): Promise<number>;
  /** Calls sent and 429s seen, fleet-wide, since the counters were created. */
  counters(): Promise<{ calls: number; rateLimited: number }>;
  state(): Promise<BudgetState>;
  /** The least pause after a 429 with this Retry-After: Retry-After itself, else one call at the last known rate. */
  pauseAfter429(retryAfterMs: number | undefined): number;
}

/** The capacity never drops below this after 429s (nor above the configured one): three calls back to back. */
const CAPACITY_FLOOR = 3;
/** ...and the rate never below a tenth of what it was told. */
const RATE_FLOOR_SHARE = 0.1;

/**
 * One quiet period per token's bucket in a process, shared by every budget of it: a process that opens several budgets
 * of one token (its batches, its steps) would otherwise have each wait for a missing replica in turn, and their
 * reservations, back after different waits, would send their calls together (429s after a cluster failover).
 */
const replicaQuiets = new Map<string, ReplicaQuiet>();
function replicaQuietOf(bucketKey: string): ReplicaQuiet {
  let quiet = replicaQuiets.get(bucketKey);
  if (quiet === undefined) replicaQuiets.set(bucketKey, (quiet = createReplicaQuiet()));
  return quiet;
}

/**
 * How long after its slot a reserved call may still go on that reservation: two calls' time, and never less than half a
 * second, so that a timer firing late on a busy machine does not make every waiting call reserve again (each
 * re-reservation charges the bucket anew and would slow the fleet for nothing).
 */
export function lateToleranceMs(intervalMs: number): number {
  return Math.max(2 * intervalMs, 500);
}

export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const clock = options.clock ?? systemClock;
  const key = tokenKey(options.service === undefined ? options.accessToken : `${options.service}\n${options.accessToken}`);
  const keys = [options.keys.budget(key), options.keys.pause(key), options.keys.calls(key)];
  const { requests, perSeconds, headroom } = options.rate;
  const burst = options.rate.burst ?? 'auto';
  const capacity = burst === 'auto' ? requests : Math.max(1, burst);
  const windowMs = perSeconds * 1000;
  const toldPerMs = requests / windowMs;
  const args = [toldPerMs, capacity, Math.min(capacity, CAPACITY_FLOOR), toldPerMs * RATE_FLOOR_SHARE, headroom, windowMs, Math.max(86_400_000, 10 * windowMs)];
  // The last interval a script reported, for pauseAfter429 (which must answer without a round trip).
  let intervalMs = 1 / (toldPerMs * (1 - headroom));

  // EVALSHA of each script (lua-script.ts); the three keys are one token's, in one cluster slot (queue-keys.ts).
  const run = async (script: string, ...extra: Array<number | string>): Promise<unknown> => scriptOf(script).run(options.redis, keys, [...args, ...extra]);
  const replicaAcks = options.replicaAcks ?? { count: 0, timeoutMs: 0 };
  const replicaQuiet = replicaQuietOf(keys[0]!);
  /**
   * A reservation, on a replica too where there are replicas (in the same round trip: lua-script.ts). Once a
   * reservation found no replica in time (a new master whose replica is still syncing, a replica down), the next ones
   * do not wait for one for a while: reservations that come back after different waits would send their calls
   * together, past their places, over the service's rate. A reservation that waits for a replica is held (not counted
   * as sent): one a replica took is confirmed like a place slept for; one no replica took came back a whole wait after
   * its place (and WAIT blocks the connection, so those queued behind it come back one wait later each), so its call
   * reserves again, at the time it really goes. The place it leaves stays charged: the model errs slow, not over.
   */
  const reserve = async (cost: number): Promise<{ answer: unknown; held: boolean; stale: boolean }> => {
    if (replicaAcks.count === 0 || !replicaQuiet.waiting()) return { answer: await run(RESERVE, cost), held: false, stale: false };
    const { result, acknowledged } = await scriptOf(RESERVE).runReplicated(options.redis, keys, [...args, cost, 1], replicaAcks);
    if (acknowledged >= replicaAcks.count) return { answer: result, held: true, stale: false };
    replicaQuiet.missed();
    options.logger?.warn({ wanted: replicaAcks.count }, 'no Redis replica took a budget reservation in time: reservations go on without waiting for one for 30 s (a failover now could lose some)');
    return { answer: result, held: true, stale: true };
  };

  const budget: RequestBudget = {
    async beforeRequest(info) {
      const cost = Math.max(1, info.cost ?? 1);
      for (;;) {
        info.signal?.throwIfAborted();
        const { answer, held, stale } = await reserve(cost);
        const [reserved, wait, epoch, interval, slot] = answer as [number, number, number, string, string];
        intervalMs = Number(interval);
        if (stale) continue;
        if (wait > 0) await clock.sleep(wait, info.signal);
        if (reserved !== 1) continue;
        if ((wait <= 0 && !held) || (await scriptOf(CONFIRM).run(options.redis, keys, [epoch, cost, slot, lateToleranceMs(intervalMs)])) === 1) return;
      }
    },
    async onResponse(info) {
      if (info.status !== 429 && info.errorCode !== 4003) return;
      // Sent at once (no await before it), so a later pausedFor() on the same connection already sees the pause.
      const [pauseMs, learnedCapacity, learnedRate] = (await run(RECORD_429, info.retryAfterMs ?? -1, Math.max(0, info.durationMs ?? 0))) as [number, string, string];
      options.logger?.warn(
        { operation: info.operation, pauseMs, capacity: Number(learnedCapacity), ratePerSecond: Number(Number(learnedRate).toFixed(3)) },
        'rate limited (429): every worker of this token waits; budget corrected',
      );
    },
    async pause(ms) {
      await run(PAUSE, Math.max(1, Math.ceil(ms)));
    },
    async pausedFor() {
      return (await budget.state()).pausedForMs;
    },
    async counters() {
      const values = await options.redis.hmget(options.keys.calls(key), 'calls', 'rateLimited');
      return { calls: Number(values[0] ?? 0), rateLimited: Number(values[1] ?? 0) };
    },
    async state() {
      const [level, learnedCapacity, ratePerSecond, pausedForMs] = ((await run(READ)) as string[]).map(Number) as [number, number, number, number];
      return { level, capacity: learnedCapacity, ratePerSecond, pausedForMs: Math.ceil(pausedForMs) };
    },
    pauseAfter429(retryAfterMs) {
      return retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : Math.max(1, Math.ceil(intervalMs));
    },
  };
  return budget;
}
