import { z } from 'zod';
import type { PlannedRow } from '../plan/planned-row.js';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';
import { OUTCOMES, emptyCounts, rowOutcomeSchema, rowsWithOutcome, type OutcomeCounts, type RowOutcome } from './row-outcome.js';

/**
 * submitting: rows are being queued; queued: every row is queued or has an outcome; stopped: the token was refused,
 * remaining rows wait for `retry`; finished: every row has an outcome; cancelled: `cancel` ran.
 */
export const BATCH_STATES = ['submitting', 'queued', 'stopped', 'finished', 'cancelled'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

const recordSchema = z.object({
  id: z.string(),
  state: z.enum(BATCH_STATES),
  source: z.string(),
  sha256: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  /** Rows of the manifest (each ends with one outcome). */
  total: z.coerce.number(),
  /** Rows queued as jobs. */
  queued: z.coerce.number(),
  sim: z.enum(['true', 'false']).transform((v) => v === 'true'),
  target: z.string(),
  queueName: z.string(),
  message: z.string().optional(),
});

export interface BatchRecord extends z.infer<typeof recordSchema> {
  counts: OutcomeCounts;
}

export type NewBatch = Omit<BatchRecord, 'counts' | 'state' | 'finishedAt' | 'message'>;

// KEYS: outcomes, batch, inflight, finished-per-second. ARGV: row, json, outcome, finishedAt (ISO).
// Keeps the first outcome of a row only; counts it (and in its second, for the pace shown on the dashboard); marks the
// batch finished when every row has one (returns 2 then), at the latest outcome's time: rows end concurrently (several
// workers, cancel's slices), so the row that completes the count is not always the one that ended last. Only a row that
// ended knowing its state drops the in-flight marker: a failed or cancelled row may hold a change an earlier attempt
// made unseen, and `retry` can run it again, which must then confirm before acting.
// The counted fields come from OUTCOMES, so a new outcome cannot be left out of "every row has one".
const RECORD = luaScript('RecordOutcome', `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[3], 1)
local last = redis.call('HGET', KEYS[2], 'lastOutcomeAt')
if not last or ARGV[4] > last then
  last = ARGV[4]
  redis.call('HSET', KEYS[2], 'lastOutcomeAt', last)
end
redis.call('HINCRBY', KEYS[4], string.sub(ARGV[4], 1, 19), 1)
if ARGV[3] == 'succeeded' or ARGV[3] == 'unchanged' then redis.call('HDEL', KEYS[3], ARGV[1]) end
local c = redis.call('HMGET', KEYS[2], ${OUTCOMES.map((o) => `'n:${o}'`).join(', ')}, 'total', 'state')
local n = ${OUTCOMES.length}
local sum = 0
for i = 1, n do sum = sum + tonumber(c[i] or '0') end
if sum >= tonumber(c[n + 1] or '0') and c[n + 2] ~= 'cancelled' and c[n + 2] ~= 'submitting' then
  redis.call('HSET', KEYS[2], 'state', 'finished', 'finishedAt', last)
  return 2
end
-- A cancelled batch stays cancelled; its last row's end is when it stopped (its duration stops growing).
if sum >= tonumber(c[n + 1] or '0') and c[n + 2] == 'cancelled' then redis.call('HSET', KEYS[2], 'finishedAt', last) end
return 1`);

// KEYS: outcomes, batch, finished-per-second. ARGV: row, expected outcome. Forgets an outcome so the row can run again
// (retry), in its second too. A batch with a row to run is not finished, even if another row's outcome marked it
// finished since retry set it queued.
const FORGET = luaScript('ForgetOutcome', `
local json = redis.call('HGET', KEYS[1], ARGV[1])
if not json then return 0 end
local outcome = cjson.decode(json)
if outcome['outcome'] ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[2], -1)
if type(outcome['finishedAt']) == 'string' and redis.call('HINCRBY', KEYS[3], string.sub(outcome['finishedAt'], 1, 19), -1) <= 0 then
  redis.call('HDEL', KEYS[3], string.sub(outcome['finishedAt'], 1, 19))
end
if redis.call('HGET', KEYS[2], 'state') == 'finished' then
  redis.call('HSET', KEYS[2], 'state', 'queued')
  redis.call('HDEL', KEYS[2], 'finishedAt')
end
return 1`);

// KEYS: batch. ARGV: to, from..., message. Moves the batch to `to` only from one of the `from` states.
const TRANSITION = luaScript('BatchTransition', `local s = redis.call('HGET', KEYS[1], 'state')
for i = 2, #ARGV - 1 do if s == ARGV[i] then redis.call('HSET', KEYS[1], 'state', ARGV[1], 'message', ARGV[#ARGV]) return 1 end end
return 0`);

export interface BatchStore {
  /** Creates the record unless one with this id exists; true when created. */
  create(batch: NewBatch, createdAtMs: number): Promise<boolean>;
  get(batchId: string): Promise<BatchRecord | undefined>;
  list(limit?: number): Promise<BatchRecord[]>;
  setState(batchId: string, state: BatchState, message?: string): Promise<void>;
  /** Moves to `to` only from one of `from`; true when it did. */
  transition(batchId: string, from: readonly BatchState[], to: BatchState, message?: string): Promise<boolean>;
  saveRows(batchId: string, rows: readonly PlannedRow[]): Promise<void>;
  getRow(batchId: string, row: number): Promise<PlannedRow | undefined>;
  rowNumbers(batchId: string): Promise<number[]>;
  /** Records a row's outcome unless it has one; true when recorded. */
  recordOutcome(outcome: RowOutcome): Promise<boolean>;
  getOutcome(batchId: string, row: number): Promise<RowOutcome | undefined>;
  /** Rows that got their outcome, per second (epoch ms of the second), in time order: how fast the batch went. */
  finishedPerSecond(batchId: string): Promise<Array<{ at: number; rows: number }>>;
  /** Rows a worker has started at least once (an outcome recorded at submission or by cancel never started). */
  rowsStarted(batchId: string): Promise<number>;
  hasOutcome(batchId: string, row: number): Promise<boolean>;
  forgetOutcome(batchId: string, row: number, expected: RowOutcome['outcome']): Promise<boolean>;
  /** Every outcome, in row order, read in slices so that a large batch is not held in memory at once. */
  outcomes(batchId: string): AsyncIterable<RowOutcome>;
  /** The rows without an outcome yet, in order, read in slices as `outcomes` (nothing parsed). */
  rowsWithoutOutcome(batchId: string): AsyncIterable<number>;
  /** Marks the batch finished when every row has an outcome (after submission of rows that all ended at once). */
  finishIfComplete(batchId: string, now: Date): Promise<void>;
  /** Keeps a row's state before its change unless one is kept already (the first read is the state before). */
  saveStateBefore(batchId: string, row: number, state: unknown): Promise<void>;
  hasStateBefore(batchId: string, row: number): Promise<boolean>;
  /** Every row's state before, by row (JSON as saved). */
  statesBefore(batchId: string): Promise<Map<number, unknown>>;
}

export interface BatchStoreHooks {
  /**
   * Called after an outcome was recorded (not for a row that already had one); `batchFinished` when it was the last.
   * Awaited (the audit trail appends here), so it must not throw: an observer catches and logs its own failures.
   */
  onOutcome?: (outcome: RowOutcome, batchFinished: boolean) => void | Promise<void>;
  /** Called when a batch became finished by `finishIfComplete` (rows that all ended at submission). Must not throw. */
  onBatchFinished?: (batchId: string) => void | Promise<void>;
}

/** Both observers' calls, in order (e.g. metrics, then the audit trail). */
export function combineStoreHooks(...all: Array<BatchStoreHooks | undefined>): BatchStoreHooks {
  const hooks = all.filter((h): h is BatchStoreHooks => h !== undefined);
  return {
    onOutcome: async (outcome, batchFinished) => {
      for (const h of hooks) await h.onOutcome?.(outcome, batchFinished);
    },
    onBatchFinished: async (batchId) => {
      for (const h of hooks) await h.onBatchFinished?.(batchId);
    },
  };
}

export function createBatchStore(redis: RedisClient, keys: QueueKeys, hooks: BatchStoreHooks = {}): BatchStore {
  /** Each row of the batch with its outcome's JSON (null: none yet), 500 rows a round trip. */
  async function* outcomeSlots(batchId: string): AsyncIterable<{ row: number; json: string | null }> {
    const total = Number((await redis.hget(keys.batch(batchId), 'total')) ?? 0);
    for (let first = 1; first <= total; first += 500) {
      const fields: string[] = [];
      for (let row = first; row < first + 500 && row <= total; row += 1) fields.push(String(row));
      const values = await redis.hmget(keys.outcomes(batchId), ...fields);
      for (const [index, json] of values.entries()) yield { row: first + index, json };
    }
  }
  const store: BatchStore = {
    async create(batch, createdAtMs) {
      const key = keys.batch(batch.id);
      const created = await redis.hsetnx(key, 'id', batch.id);
      if (created === 0) return false;
      // Two commands, not one MULTI: the record and the list of batches live in different hash slots.
      await redis.hset(key, {
        state: 'submitting',
        source: batch.source,
        sha256: batch.sha256,
        createdAt: batch.createdAt,
        total: batch.total,
        queued: batch.queued,
        sim: String(batch.sim),
        target: batch.target,
        queueName: batch.queueName,
      });
      await redis.zadd(keys.batches, createdAtMs, batch.id);
      return true;
    },
    async get(batchId) {
      const raw = await redis.hgetall(keys.batch(batchId));
      if (raw.state === undefined) return undefined;
      const record = recordSchema.parse(raw);
      const counts = emptyCounts();
      for (const outcome of OUTCOMES) counts[outcome] = Number(raw[`n:${outcome}`] ?? 0);
      return { ...record, counts };
    },
    async list(limit = 50) {
      const ids = await redis.zrevrange(keys.batches, 0, limit - 1);
      const records = await Promise.all(ids.map((id) => store.get(id)));
      return records.filter((r): r is BatchRecord => r !== undefined);
    },
    async setState(batchId, state, message) {
      await redis.hset(keys.batch(batchId), { state, message: message ?? '' });
      // A batch that runs again (retry) has not finished: its old finish time would stop its duration growing.
      if (state !== 'finished' && state !== 'cancelled') await redis.hdel(keys.batch(batchId), 'finishedAt');
    },
    async transition(batchId, from, to, message) {
      return (await TRANSITION.run(redis, [keys.batch(batchId)], [to, ...from, message ?? ''])) === 1;
    },
    async saveRows(batchId, rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        const slice = rows.slice(i, i + 1000);
        const fields: Record<string, string> = {};
        for (const row of slice) fields[String(row.row)] = JSON.stringify(row);
        if (slice.length > 0) await redis.hset(keys.rows(batchId), fields);
      }
    },
    async getRow(batchId, row) {
      const json = await redis.hget(keys.rows(batchId), String(row));
      return json === null ? undefined : (JSON.parse(json) as PlannedRow);
    },
    async rowNumbers(batchId) {
      const fields = await redis.hkeys(keys.rows(batchId));
      return fields.map(Number).sort((a, b) => a - b);
    },
    async recordOutcome(outcome) {
      const json = JSON.stringify(rowOutcomeSchema.parse(outcome));
      const result = await RECORD.run(redis, [keys.outcomes(outcome.batchId), keys.batch(outcome.batchId), keys.inflight(outcome.batchId), keys.finishedPerSecond(outcome.batchId)], [String(outcome.row), json, outcome.outcome, outcome.finishedAt]);
      if (result === 0) return false;
      await hooks.onOutcome?.(outcome, result === 2);
      return true;
    },
    async getOutcome(batchId, row) {
      const json = await redis.hget(keys.outcomes(batchId), String(row));
      return json === null ? undefined : rowOutcomeSchema.parse(JSON.parse(json));
    },
    async finishedPerSecond(batchId) {
      const seconds = await redis.hgetall(keys.finishedPerSecond(batchId));
      return Object.entries(seconds)
        .map(([second, rows]) => ({ at: Date.parse(`${second}Z`), rows: Number(rows) }))
        .filter((entry) => Number.isFinite(entry.at) && entry.rows > 0)
        .sort((a, b) => a.at - b.at);
    },
    async rowsStarted(batchId) {
      return redis.hlen(keys.started(batchId));
    },
    async hasOutcome(batchId, row) {
      return (await redis.hexists(keys.outcomes(batchId), String(row))) === 1;
    },
    async forgetOutcome(batchId, row, expected) {
      return (await FORGET.run(redis, [keys.outcomes(batchId), keys.batch(batchId), keys.finishedPerSecond(batchId)], [String(row), expected])) === 1;
    },
    async *outcomes(batchId) {
      for await (const { json } of outcomeSlots(batchId)) if (json !== null) yield rowOutcomeSchema.parse(JSON.parse(json));
    },
    async *rowsWithoutOutcome(batchId) {
      for await (const { row, json } of outcomeSlots(batchId)) if (json === null) yield row;
    },
    async finishIfComplete(batchId, now) {
      const batch = await store.get(batchId);
      if (batch === undefined || batch.state === 'cancelled' || batch.state === 'finished') return;
      if (rowsWithOutcome(batch.counts) >= batch.total) {
        await redis.hset(keys.batch(batchId), { state: 'finished', finishedAt: now.toISOString() });
        await hooks.onBatchFinished?.(batchId);
      }
    },
    async saveStateBefore(batchId, row, state) {
      await redis.hsetnx(keys.before(batchId), String(row), JSON.stringify(state ?? null));
    },
    async hasStateBefore(batchId, row) {
      return (await redis.hexists(keys.before(batchId), String(row))) === 1;
    },
    async statesBefore(batchId) {
      const raw = await redis.hgetall(keys.before(batchId));
      return new Map(Object.entries(raw).map(([row, json]) => [Number(row), JSON.parse(json) as unknown]));
    },
  };
  return store;
}
