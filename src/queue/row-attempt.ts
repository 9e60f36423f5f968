import { randomUUID } from 'node:crypto';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient, type ReplicaAcks } from './redis/lua-script.js';
import { createReplicaQuiet, REPLICATION_PATIENCE_MS } from './redis/replicated-write.js';

/**
 * The in-flight marker of a row (hash `inflight`, field = row) holds either a running marker (`1:<token>:…`: an
 * attempt is running, or a worker died or lost its lock during one) or a Redis time in ms until which an earlier
 * attempt's request may still land (set when an attempt ended without knowing whether it applied). Either way the next
 * attempt confirms first.
 */
export type AttemptStart =
  /** An earlier request of this row may still land: confirm no sooner than `waitMs` from `nowMs`. */
  | { kind: 'wait'; waitMs: number; nowMs: number; crashed: number }
  /**
   * `crashed` attempts of this row (at least the limit asked for) ended without an answer: the row keeps killing or
   * losing its worker. Nothing was counted or marked; the row may have been changed by one of them.
   */
  | { kind: 'crashed-out'; crashed: number; attempts: number; nowMs: number }
  /** `attempts`: attempts the service answered (this one included); `crashed`: attempts that ended without. */
  | { kind: 'go'; uncertain: boolean; attempts: number; crashed: number; firstStartMs: number; nowMs: number };

// KEYS: inflight, attempts, started, crashed. ARGV: row, settle ms (0: the job type does not create), 1 for an attempt
// that may change something, 0 for a confirm-only one, the crashed attempts after which the row is not tried again,
// this start's own token. A running marker (`1:<token>:<1 if an earlier attempt was uncertain, else 0>`; `1` from
// before tokens) is an attempt that started and never ended: its worker died, or lost the row, before an answer was
// recorded. That is no answer of the service, so it leaves the row's retry budget (attempts) for the crashed count,
// once: the marker then says until when that attempt's request may still land (a running marker says nothing of when
// it went out, so the settle time counts from the first attempt that meets it), and later attempts wait no longer.
// A marker holding this start's own token is this very start, whose answer was lost and which the connection sent
// again (ioredis resends unanswered commands): it is answered as the first time, not taken for a crashed attempt.
const START = luaScript('RowStart', `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local marker = redis.call('HGET', KEYS[1], ARGV[1])
local settle = tonumber(ARGV[2])
local mine = '1:' .. ARGV[5] .. ':'
if marker and string.sub(marker, 1, #mine) == mine then
  local attempts = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
  local crashed = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
  return {1, tonumber(string.sub(marker, #mine + 1)), attempts, tonumber(redis.call('HGET', KEYS[3], ARGV[1])), now, crashed}
end
if marker == '1' or (marker and string.sub(marker, 1, 2) == '1:') then
  if tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0') > 0 then redis.call('HINCRBY', KEYS[2], ARGV[1], -1) end
  redis.call('HINCRBY', KEYS[4], ARGV[1], 1)
  marker = tostring(now + settle)
  redis.call('HSET', KEYS[1], ARGV[1], marker)
end
local crashed = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
if marker and settle > 0 then
  local landsBy = tonumber(marker)
  if landsBy > now then return {0, landsBy - now, crashed, now} end
end
if crashed >= tonumber(ARGV[4]) then return {2, crashed, tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0'), now} end
local uncertain = marker and 1 or 0
-- A confirm-only attempt changes nothing: the marker keeps saying when an earlier request stops being able to land.
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], ARGV[1], mine .. uncertain) end
local attempts = redis.call('HINCRBY', KEYS[2], ARGV[1], tonumber(ARGV[3]))
redis.call('HSETNX', KEYS[3], ARGV[1], now)
return {1, uncertain, attempts, tonumber(redis.call('HGET', KEYS[3], ARGV[1])), now, crashed}`);

// KEYS: inflight. ARGV: row, ms the request may still take. The marker says from when on a confirm can be trusted.
const UNCERTAIN = luaScript('RowUncertain', `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], now + tonumber(ARGV[2]))
return now`);

const NO_REPLICAS: ReplicaAcks = { count: 0, timeoutMs: 0 };

/** `replicaAcks`: replicas that must hold the in-flight marker before the row's call goes out (none by default). */
export function createRowAttempts(redis: RedisClient, keys: QueueKeys, replicaAcks: ReplicaAcks = NO_REPLICAS, now: () => number = Date.now) {
  // A replica down would cost every row the whole wait. Markers that have found no replica for the replicated writes'
  // patience (a replica gone, not one slow moment of a busy one) make the next ones skip the wait for a while.
  const replicaQuiet = createReplicaQuiet(now);
  let missingSince: number | undefined;
  const noteReplicas = (replicated: boolean): void => {
    if (replicated) missingSince = undefined;
    else if (missingSince === undefined) missingSince = now();
    else if (now() - missingSince >= REPLICATION_PATIENCE_MS) {
      replicaQuiet.missed();
      missingSince = undefined;
    }
  };
  const attempts = {
    /**
     * Marks the row in flight and counts the attempt (a confirm-only attempt does neither), unless an earlier request
     * of a create may still land. The marker must survive a failover before the call goes out: with replicas, the
     * start waits until they have it (`replicated` says whether enough did in time; `waitedForReplicas` whether it
     * waited at all: not while replicas have been missing for the patience).
     */
    async start(batchId: string, row: number, options: { settleMs: number; countAttempt: boolean; maxCrashed?: number }): Promise<AttemptStart & { replicated: boolean; waitedForReplicas: boolean }> {
      const waiting = replicaAcks.count > 0 && replicaQuiet.waiting();
      const started = await START.runReplicated(
        redis,
        [keys.inflight(batchId), keys.attempts(batchId), keys.started(batchId), keys.crashed(batchId)],
        [String(row), options.settleMs, options.countAttempt ? 1 : 0, options.maxCrashed ?? Number.MAX_SAFE_INTEGER, randomUUID()],
        replicaAcks.count > 0 ? replicaQuiet.replicasFor(replicaAcks) : NO_REPLICAS,
      );
      const replicated = started.acknowledged >= replicaAcks.count;
      if (waiting) noteReplicas(replicated);
      else if (replicated) replicaQuiet.acknowledged();
      const result = (started.result as unknown[]).map(Number);
      const replication = { replicated, waitedForReplicas: waiting };
      if (result[0] === 0) return { kind: 'wait', waitMs: result[1]!, crashed: result[2]!, nowMs: result[3]!, ...replication };
      if (result[0] === 2) return { kind: 'crashed-out', crashed: result[1]!, attempts: result[2]!, nowMs: result[3]!, ...replication };
      return { kind: 'go', uncertain: result[1] === 1, attempts: result[2]!, firstStartMs: result[3]!, nowMs: result[4]!, crashed: result[5]!, ...replication };
    },
    /**
     * Whether the row holds an in-flight marker: an attempt of it started and has not ended knowing nothing changed, so
     * it may have applied (a row parked while its request may still land is one). Such a row is not cancelled as "not
     * run": its worker confirms it.
     */
    async inFlight(batchId: string, row: number): Promise<boolean> {
      return (await redis.hexists(keys.inflight(batchId), String(row))) === 1;
    },
    /** The attempt ended knowing nothing changed. */
    async clear(batchId: string, row: number): Promise<void> {
      await redis.hdel(keys.inflight(batchId), String(row));
    },
    /** The attempt may have applied; `stillInFlightMs` is how long its request may still take (0 when it was answered). */
    async leaveUncertain(batchId: string, row: number, stillInFlightMs: number): Promise<void> {
      await UNCERTAIN.run(redis, [keys.inflight(batchId)], [String(row), Math.max(0, Math.round(stillInFlightMs))]);
    },
    /**
     * A started attempt that sends nothing after all (its marker reached no replica): the row is as before it, but for
     * an earlier attempt's uncertainty, which stays (a marker that says that attempt can no longer land).
     */
    async notSent(batchId: string, row: number, start: { uncertain: boolean; counted: boolean }): Promise<void> {
      if (!start.counted) return;
      if (start.uncertain) await attempts.leaveUncertain(batchId, row, 0);
      else await attempts.clear(batchId, row);
      await attempts.uncount(batchId, row);
    },
    /** A call refused before it was made (429, refused token) spends no attempt. */
    async uncount(batchId: string, row: number): Promise<void> {
      await redis.hincrby(keys.attempts(batchId), String(row), -1);
    },
  };
  return attempts;
}

export type RowAttempts = ReturnType<typeof createRowAttempts>;
