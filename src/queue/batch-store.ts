import { parseRecord, readableOnly } from '../core/unreadable-record.js';
import { z } from 'zod';
import type { PlannedRow } from '../plan/planned-row.js';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';
import { createRowLifecycle, rowStateCountsOf, type EndResult, type RowLifecycle, type RowState, type RowStateCounts } from './row-lifecycle.js';
import { OUTCOMES, emptyCounts, rowOutcomeSchema, rowsWithOutcome, type OutcomeCounts, type RowOutcome } from './row-outcome.js';
import type { RowWaker } from './row-waiter.js';
import { createOpenBatches, type OpenBatches } from './open-batches.js';
import { createRecord } from './redis/create-record.js';
import { createUnrecordedEnds, type UnrecordedEnds } from './unrecorded-ends.js';

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
  /** Rows without an outcome yet, by their state (row-lifecycle.ts). */
  rowStates: RowStateCounts;
}

export type NewBatch = Omit<BatchRecord, 'counts' | 'rowStates' | 'state' | 'finishedAt' | 'message'>;

// KEYS: batch. ARGV: to, from..., message. Moves the batch to `to` only from one of the `from` states.
const TRANSITION = luaScript('BatchTransition', `local s = redis.call('HGET', KEYS[1], 'state')
for i = 2, #ARGV - 1 do if s == ARGV[i] then redis.call('HSET', KEYS[1], 'state', ARGV[1], 'message', ARGV[#ARGV]) return 1 end end
return 0`);

export interface BatchStore {
  /** Creates the record unless one with this id exists; true when created. */
  create(batch: NewBatch, createdAtMs: number): Promise<boolean>;
  get(batchId: string): Promise<BatchRecord | undefined>;
  list(limit?: number): Promise<BatchRecord[]>;
  /** Every open batch's record (open-batches.ts), however old; records a failover left unreadable are skipped. */
  listOpen(): Promise<BatchRecord[]>;
  setState(batchId: string, state: BatchState, message?: string): Promise<void>;
  /** Moves to `to` only from one of `from`; true when it did. */
  transition(batchId: string, from: readonly BatchState[], to: BatchState, message?: string): Promise<boolean>;
  saveRows(batchId: string, rows: readonly PlannedRow[]): Promise<void>;
  getRow(batchId: string, row: number): Promise<PlannedRow | undefined>;
  rowNumbers(batchId: string): Promise<number[]>;
  /** The row states' transitions (the one place they are written). */
  rowLifecycle: RowLifecycle;
  /** The batches not done yet (a row to end, an end to record), however old. */
  openBatches: OpenBatches;
  /** Ended rows not yet in the audit trail. */
  unrecordedEnds: UnrecordedEnds;
  /** Records a row's outcome unless it has one (and ends its state); true when recorded. */
  recordOutcome(outcome: RowOutcome): Promise<boolean>;
  /**
   * Ends a row with this outcome only while its state is one of `from` (e.g. a step that will not run: planned or
   * scheduled, never a row a worker has): says what it did, or which state refused it. A row that ended wakes the job
   * waiting for it (its step).
   */
  endRow(outcome: RowOutcome, from?: readonly (RowState | 'none')[]): Promise<EndResult>;
  getOutcome(batchId: string, row: number): Promise<RowOutcome | undefined>;
  /** The outcomes of these rows (those that have one), one round trip per thousand. */
  outcomesOf(batchId: string, rows: readonly number[]): Promise<Map<number, RowOutcome>>;
  /** Rows that got their outcome, per second (epoch ms of the second), in time order: how fast the batch went. */
  finishedPerSecond(batchId: string): Promise<Array<{ at: number; rows: number }>>;
  /** Rows a worker has started at least once (an outcome recorded at submission or by cancel never started). */
  rowsStarted(batchId: string): Promise<number>;
  hasOutcome(batchId: string, row: number): Promise<boolean>;
  /**
   * Forgets the row's outcome when it is still `expected` (the outcome read before: its kind and finishedAt), reopening
   * the row to `to` (default queued): retry.
   */
  forgetOutcome(batchId: string, row: number, expected: Pick<RowOutcome, 'outcome' | 'finishedAt'>, to?: 'queued' | 'planned'): Promise<boolean>;
  /** Every outcome, in row order, read in slices so that a large batch is not held in memory at once. */
  outcomes(batchId: string): AsyncIterable<RowOutcome>;
  /** Marks the batch finished when every row has an outcome (after submission of rows that all ended at once). */
  finishIfComplete(batchId: string, now: Date): Promise<void>;
  /** Keeps a row's state before its change unless one is kept already (the first read is the state before). */
  saveStateBefore(batchId: string, row: number, state: unknown): Promise<void>;
  hasStateBefore(batchId: string, row: number): Promise<boolean>;
  /** What readBefore kept for the row (parsed JSON), or undefined when nothing was kept. */
  stateBefore(batchId: string, row: number): Promise<unknown>;
  /** Every row's state before, by row (JSON as saved). */
  statesBefore(batchId: string): Promise<Map<number, unknown>>;
}

export interface BatchStoreHooks {
  /**
   * Called after an outcome was recorded (not for a row that already had one); `batchFinished` when it was the last;
   * `run`: the row's run this outcome ends (0, then one more per `retry` that reopened the row; EndResult). Awaited
   * (the audit trail appends here), so it must not throw: an observer catches and logs its own failures.
   */
  onOutcome?: (outcome: RowOutcome, batchFinished: boolean, run: number) => void | Promise<void>;
  /** Called when a batch became finished by `finishIfComplete` (rows that all ended at submission). Must not throw. */
  onBatchFinished?: (batchId: string) => void | Promise<void>;
}

/** Both observers' calls, in order (e.g. metrics, then the audit trail). */
export function combineStoreHooks(...all: Array<BatchStoreHooks | undefined>): BatchStoreHooks {
  const hooks = all.filter((h): h is BatchStoreHooks => h !== undefined);
  return {
    onOutcome: async (outcome, batchFinished, run) => {
      for (const h of hooks) await h.onOutcome?.(outcome, batchFinished, run);
    },
    onBatchFinished: async (batchId) => {
      for (const h of hooks) await h.onBatchFinished?.(batchId);
    },
  };
}

/**
 * `wake`: wakes the job that waits for a row once the row has ended (row-waiter.ts); without it (a store that only
 * reads, or ends rows no step waits for) such a job finds the outcome on its own slower look.
 */
export function createBatchStore(redis: RedisClient, keys: QueueKeys, hooks: BatchStoreHooks = {}, wake?: RowWaker): BatchStore {
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
  const rowLifecycle = createRowLifecycle(redis, keys);
  const openBatches = createOpenBatches(redis, keys);
  const unrecordedEnds = createUnrecordedEnds(redis, keys, openBatches);
  const store: BatchStore = {
    rowLifecycle,
    openBatches,
    unrecordedEnds,
    async create(batch, createdAtMs) {
      const key = keys.batch(batch.id);
      const record = {
        id: batch.id,
        state: 'submitting',
        source: batch.source,
        sha256: batch.sha256,
        createdAt: batch.createdAt,
        total: batch.total,
        queued: batch.queued,
        sim: String(batch.sim),
        target: batch.target,
        queueName: batch.queueName,
      };
      if (!(await createRecord(redis, key, record, 'createdAt'))) return false;
      // Apart from the record: the list of batches lives in another hash slot.
      await redis.zadd(keys.batches, createdAtMs, batch.id);
      await openBatches.join(batch.id);
      return true;
    },
    async get(batchId) {
      const raw = await redis.hgetall(keys.batch(batchId));
      if (raw.state === undefined) return undefined;
      const record = parseRecord(recordSchema, raw, 'batch', batchId);
      const counts = emptyCounts();
      for (const outcome of OUTCOMES) counts[outcome] = Number(raw[`n:${outcome}`] ?? 0);
      return { ...record, counts, rowStates: rowStateCountsOf(raw) };
    },
    async list(limit = 50) {
      const ids = await redis.zrevrange(keys.batches, 0, limit - 1);
      return readableOnly(ids.map((id) => store.get(id)));
    },
    async listOpen() {
      return readableOnly((await openBatches.ids()).map((id) => store.get(id)));
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
      return (await store.endRow(outcome)).kind === 'recorded';
    },
    async endRow(outcome, from) {
      const result = await rowLifecycle.end(outcome, from);
      if (result.kind === 'recorded') {
        if (result.waiter !== undefined) await wake?.(result.waiter);
        await hooks.onOutcome?.(outcome, result.batchFinished, result.run);
      }
      return result;
    },
    async getOutcome(batchId, row) {
      const json = await redis.hget(keys.outcomes(batchId), String(row));
      return json === null ? undefined : rowOutcomeSchema.parse(JSON.parse(json));
    },
    async outcomesOf(batchId, rows) {
      const found = new Map<number, RowOutcome>();
      for (let i = 0; i < rows.length; i += 1000) {
        const slice = rows.slice(i, i + 1000);
        if (slice.length === 0) continue;
        const values = await redis.hmget(keys.outcomes(batchId), ...slice.map(String));
        for (const [index, json] of values.entries()) if (json !== null) found.set(slice[index]!, rowOutcomeSchema.parse(JSON.parse(json)));
      }
      return found;
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
    async forgetOutcome(batchId, row, expected, to = 'queued') {
      // Open before (a process that dies after reopening leaves the batch open) and after (a catch-up that found every
      // row ended just before the reopening may have let the batch go).
      await openBatches.join(batchId);
      const reopened = await rowLifecycle.reopen(batchId, row, expected, to);
      if (reopened) await openBatches.join(batchId);
      return reopened;
    },
    async *outcomes(batchId) {
      for await (const { json } of outcomeSlots(batchId)) if (json !== null) yield rowOutcomeSchema.parse(JSON.parse(json));
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
    async stateBefore(batchId, row) {
      const json = await redis.hget(keys.before(batchId), String(row));
      return json === null ? undefined : (JSON.parse(json) as unknown);
    },
    async statesBefore(batchId) {
      const raw = await redis.hgetall(keys.before(batchId));
      return new Map(Object.entries(raw).map(([row, json]) => [Number(row), JSON.parse(json) as unknown]));
    },
  };
  return store;
}
