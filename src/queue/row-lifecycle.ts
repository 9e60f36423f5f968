import type { Queue } from 'bullmq';
import type { PlannedRow } from '../plan/planned-row.js';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';
import { rowJobId, rowJobOptions, type RowJobData } from './row-job.js';
import { OUTCOMES, rowOutcomeSchema, type RowOutcome } from './row-outcome.js';
import { decodeRowWaiter, encodeRowWaiter, type RowWaiter } from './row-waiter.js';

/**
 * The lifecycle of a row, written here and nowhere else:
 *
 *   planned ──► scheduled(due) ──► queued ──► running ──► ended (its one outcome)
 *      │              │               │          │ ▲
 *      └──────────────┴───────────────┴──► ended └─┘ parked (a backoff, a 429, a stopped batch): queued again
 *
 * - planned: the row belongs to a batch but nothing will run it yet (a later step of a lifecycle, or none);
 * - scheduled: a step will queue it at its due instant (on the service clock);
 * - queued: it has a job (or is about to: the state is written first, so a crash between the two leaves a queued row
 *   without a job, which the lost-row sweep finds, as it should: the row was due);
 * - running: a worker has started it;
 * - ended: it has its outcome (the outcomes hash holds it; `cancelled` is one of them).
 *
 * A row a lifecycle's step queues names the step's job (its waiter, row-waiter.ts): the end of the row returns it, so
 * the step is woken the moment its row ends instead of looking again later.
 *
 * Every transition is one Lua script over the batch's keys (one hash slot): the state, the batch's per-state counts
 * and, for an end, the outcome are written together. A row's due instant, once known, stays with it through the later
 * states, so the worker can refuse a row queued before its time. Whatever looks at rows (the lost-row sweep, retry,
 * cancel, undo, revert, status, reports, metrics, the dashboard) reads this state; none infers it from a missing job,
 * key or outcome.
 */
export const ROW_STATES = ['planned', 'scheduled', 'queued', 'running', 'ended'] as const;
export type RowState = (typeof ROW_STATES)[number];
/** States a row is in before it ends: the batch record counts each (`s:<state>`). */
export const OPEN_ROW_STATES = ['planned', 'scheduled', 'queued', 'running'] as const satisfies readonly RowState[];
export type OpenRowState = (typeof OPEN_ROW_STATES)[number];

export interface RowStatus {
  /** Absent for rows of batches queued before rows had a state (read as queued where a state is needed). */
  state?: RowState;
  /** The due instant (epoch ms, service clock) of a row that belongs to a step; absent for ordinary rows. */
  dueAt?: number;
}

export type RowStateCounts = Record<OpenRowState, number>;

/** What queuing a row did. queued: it is now; active: it was queued or running already; ended: it has an outcome. */
export type QueueResult = 'queued' | 'active' | 'ended' | 'no-row';

/** What a worker may do with a row it was handed. */
export type RowStart =
  | { kind: 'go' }
  /** The row has its outcome: nothing to do. */
  | { kind: 'ended' }
  /** Nothing queued it as due: its job should not exist (its step queues it when due). */
  | { kind: 'not-queued'; state: 'planned' | 'scheduled'; dueAt?: number }
  /** Queued before its due instant: it must wait. */
  | { kind: 'not-due'; dueAt: number };

/**
 * What ending a row did: recorded (whether that finished the batch, the job waiting for the row, to wake, and the
 * row's run the outcome ends: 0, then one more each time `retry` reopened it), or why not.
 */
export type EndResult = { kind: 'recorded'; batchFinished: boolean; run: number; waiter?: RowWaiter } | { kind: 'had-outcome' } | { kind: 'refused'; state: RowState | 'none' };

// Shared by every script: a state is `state` or `state@dueMs`; `move` rewrites it and the batch's per-state counts.
// KEYS[1] is always the batch's row-states hash, KEYS[2] the batch record.
const PRELUDE = `
local function parse(v)
  if not v then return nil, nil end
  local at = string.find(v, '@', 1, true)
  if at then return string.sub(v, 1, at - 1), string.sub(v, at + 1) end
  return v, nil
end
local function move(row, from, to, due)
  if from and from ~= 'ended' then redis.call('HINCRBY', KEYS[2], 's:' .. from, -1) end
  if to ~= 'ended' then redis.call('HINCRBY', KEYS[2], 's:' .. to, 1) end
  if due and due ~= '' then redis.call('HSET', KEYS[1], row, to .. '@' .. due) else redis.call('HSET', KEYS[1], row, to) end
end
`;

// KEYS: states, batch. ARGV: state (planned | scheduled), due ('' for none), rows... Rows with no state become
// `planned`; `scheduled` also takes planned and scheduled rows (a step added or brought forward sets its due).
const PLACE = luaScript('RowStatePlace', `${PRELUDE}
local n = 0
for i = 3, #ARGV do
  local state = parse(redis.call('HGET', KEYS[1], ARGV[i]))
  if not state or (ARGV[1] == 'scheduled' and (state == 'planned' or state == 'scheduled')) then
    move(ARGV[i], state, ARGV[1], ARGV[2])
    n = n + 1
  end
end
return n`);

// KEYS: states, batch, outcomes, rows, waiters. ARGV: due ('' for none), waiter ('' for none), then pairs (row, planned
// row JSON or ''). A row with an outcome stays ended; a queued or running row stays so; any other becomes queued, its
// planned row saved first when given and not kept yet. A row nothing can run (no planned row) is refused. The waiter
// (the job that waits for the row's end) is kept with the row, whatever its state: its end, now or after a retry,
// names it.
const QUEUE = luaScript('RowStateQueue', `${PRELUDE}
local results = {}
for i = 3, #ARGV, 2 do
  local row = ARGV[i]
  if ARGV[2] ~= '' then redis.call('HSET', KEYS[5], row, ARGV[2]) end
  local result
  if redis.call('HEXISTS', KEYS[3], row) == 1 then
    result = 'ended'
  else
    local state, due = parse(redis.call('HGET', KEYS[1], row))
    if state == 'queued' or state == 'running' then
      result = 'active'
    else
      if ARGV[i + 1] ~= '' and redis.call('HEXISTS', KEYS[4], row) == 0 then redis.call('HSET', KEYS[4], row, ARGV[i + 1]) end
      if redis.call('HEXISTS', KEYS[4], row) == 0 then
        result = 'no-row'
      else
        local newDue = ARGV[1]
        if newDue == '' then newDue = due end
        move(row, state, 'queued', newDue)
        result = 'queued'
      end
    end
  end
  results[#results + 1] = result
end
return results`);

// KEYS: states, batch, outcomes. ARGV: row, now (service clock, ms). The worker takes a queued row: it becomes
// running, unless it ended, was never queued, or is not due yet. A row without a state (queued before states) runs.
const START = luaScript('RowStateStart', `${PRELUDE}
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return {'ended'} end
local state, due = parse(redis.call('HGET', KEYS[1], ARGV[1]))
if state == 'ended' then return {'ended'} end
if state == 'planned' or state == 'scheduled' then return {'not-queued', state, due or ''} end
if due and tonumber(due) > tonumber(ARGV[2]) then return {'not-due', due} end
if state ~= 'running' then move(ARGV[1], state, 'running', due) end
return {'go'}`);

// KEYS: states, batch. ARGV: row. A running row waits again (a backoff, a 429, a stopped batch, a request that may
// still land): queued, its due kept.
const PARK = luaScript('RowStatePark', `${PRELUDE}
local state, due = parse(redis.call('HGET', KEYS[1], ARGV[1]))
if state == 'running' then move(ARGV[1], state, 'queued', due) end
return 1`);

// KEYS: states, batch, outcomes, inflight, finished-per-second, waiters, runs, unrecorded ends. ARGV: row, outcome JSON, outcome, finishedAt
// (ISO), the states it may end from ('*': any). Keeps the first outcome of a row only (returns 0 when it had one; -1
// and the state when its state is not one of those allowed); counts it (and in its second, for the pace shown on the
// dashboard); marks the batch finished when every row has one (returns 2 then), at the latest outcome's time: rows end
// concurrently (several workers, cancel's slices), so the row that completes the count is not always the one that
// ended last. Only a row that ended knowing its state drops the in-flight marker: a failed or cancelled row may hold a
// change an earlier attempt made unseen, and `retry` can run it again, which must then confirm before acting. The
// counted outcomes come from OUTCOMES, so a new outcome cannot be left out of "every row has one". The row's waiter,
// if any, comes back with a recorded end (second element) for the caller to wake, and the row's run (third): read in
// the same script as the outcome is written, so whoever records the run's outcome again (a row whose outcome a
// failover lost, queued again) is told the same run. The end is noted as not yet in the audit trail (its run and the
// Redis time) in the same write: a process that dies before appending the entry leaves that note for the catch-up.
// A row that holds this very outcome (byte for byte, its finishedAt to the millisecond) was ended by this call: Redis
// recorded it and the answer was lost, and the connection sent the script again on reconnecting (ioredis resends
// unanswered commands). It is answered as the first time, counting nothing again, so that the waiting step is woken
// and the end's hooks run (the audit entry, the batch-finished notice), rather than "it had one".
const END = luaScript('RowStateEnd', `${PRELUDE}
local had = redis.call('HGET', KEYS[3], ARGV[1])
if had and had ~= ARGV[2] then return {0} end
if had then
  local waiter = redis.call('HGET', KEYS[6], ARGV[1]) or ''
  local run = tonumber(redis.call('HGET', KEYS[7], ARGV[1]) or '0')
  if redis.call('HGET', KEYS[2], 'state') == 'finished' then return {2, waiter, run} end
  return {1, waiter, run}
end
local state, due = parse(redis.call('HGET', KEYS[1], ARGV[1]))
if ARGV[5] ~= '*' then
  local allowed = false
  for s in string.gmatch(ARGV[5], '[^,]+') do if s == (state or 'none') then allowed = true end end
  if not allowed then return {-1, state or 'none'} end
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
move(ARGV[1], state, 'ended', due)
redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[3], 1)
local last = redis.call('HGET', KEYS[2], 'lastOutcomeAt')
if not last or ARGV[4] > last then
  last = ARGV[4]
  redis.call('HSET', KEYS[2], 'lastOutcomeAt', last)
end
redis.call('HINCRBY', KEYS[5], string.sub(ARGV[4], 1, 19), 1)
if ARGV[3] == 'succeeded' or ARGV[3] == 'unchanged' then redis.call('HDEL', KEYS[4], ARGV[1]) end
local c = redis.call('HMGET', KEYS[2], ${OUTCOMES.map((o) => `'n:${o}'`).join(', ')}, 'total', 'state')
local n = ${OUTCOMES.length}
local sum = 0
for i = 1, n do sum = sum + tonumber(c[i] or '0') end
local waiter = redis.call('HGET', KEYS[6], ARGV[1]) or ''
local run = tonumber(redis.call('HGET', KEYS[7], ARGV[1]) or '0')
local now = redis.call('TIME')
redis.call('HSET', KEYS[8], ARGV[1], run .. '@' .. (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
if sum >= tonumber(c[n + 1] or '0') and c[n + 2] ~= 'cancelled' and c[n + 2] ~= 'submitting' then
  redis.call('HSET', KEYS[2], 'state', 'finished', 'finishedAt', last)
  return {2, waiter, run}
end
-- A cancelled batch stays cancelled; its last row's end is when it stopped (its duration stops growing).
if sum >= tonumber(c[n + 1] or '0') and c[n + 2] == 'cancelled' then redis.call('HSET', KEYS[2], 'finishedAt', last) end
return {1, waiter, run}`);

// KEYS: states, batch, outcomes, finished-per-second, runs, reopened outcomes. ARGV: row, expected outcome, state to
// reopen to (queued | planned), due ('' keeps the row's; a planned row has none), the expected outcome's finishedAt.
// Forgets an outcome so the row can run again (retry), in its second too. A batch with a row to run is not finished,
// even if another row's outcome marked it finished since retry set it queued. The row's run counts one more: its next
// outcome is a new one, not the old one recorded again. The forgotten outcome's finishedAt is kept: a row without an
// outcome that names it as the last one forgotten was reopened by this very call, whose answer was lost and which the
// connection sent again (ioredis resends unanswered commands); it answers as the first time, changing nothing.
const REOPEN = luaScript('RowStateReopen', `${PRELUDE}
local json = redis.call('HGET', KEYS[3], ARGV[1])
if not json then
  if redis.call('HGET', KEYS[6], ARGV[1]) == ARGV[5] then return 1 end
  return 0
end
local outcome = cjson.decode(json)
if outcome['outcome'] ~= ARGV[2] or outcome['finishedAt'] ~= ARGV[5] then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[6], ARGV[1], ARGV[5])
redis.call('HINCRBY', KEYS[5], ARGV[1], 1)
redis.call('HINCRBY', KEYS[2], 'n:' .. ARGV[2], -1)
if redis.call('HINCRBY', KEYS[4], string.sub(ARGV[5], 1, 19), -1) <= 0 then
  redis.call('HDEL', KEYS[4], string.sub(ARGV[5], 1, 19))
end
local state, due = parse(redis.call('HGET', KEYS[1], ARGV[1]))
if ARGV[4] ~= '' then due = ARGV[4] end
-- A planned row waits for its step, which queues it with its own due instant.
if ARGV[3] == 'planned' then due = nil end
move(ARGV[1], 'ended', ARGV[3], due)
if redis.call('HGET', KEYS[2], 'state') == 'finished' then
  redis.call('HSET', KEYS[2], 'state', 'queued')
  redis.call('HDEL', KEYS[2], 'finishedAt')
end
return 1`);

/** Rows a script takes at once (its arguments). */
const SLICE = 1000;

export function parseRowStatus(value: string | null | undefined): RowStatus {
  if (value === null || value === undefined) return {};
  const [state, due] = value.split('@');
  return { ...(ROW_STATES.includes(state as RowState) ? { state: state as RowState } : {}), ...(due === undefined ? {} : { dueAt: Number(due) }) };
}

/** The row-state transitions of one Redis and key layout. */
export function createRowLifecycle(redis: RedisClient, keys: QueueKeys) {
  const stateKeys = (batchId: string) => [keys.rowStates(batchId), keys.batch(batchId)];
  const lifecycle = {
    /** Rows of a batch that nothing will run yet (a later step's): planned. Rows with a state keep it. */
    async plan(batchId: string, rows: readonly number[]): Promise<void> {
      for (let i = 0; i < rows.length; i += SLICE) await PLACE.run(redis, stateKeys(batchId), ['planned', '', ...rows.slice(i, i + SLICE)]);
    },

    /** A step will queue these rows at `dueAt` (service clock): scheduled. Rows queued, running or ended keep their state. */
    async schedule(batchId: string, rows: readonly number[], dueAt: number): Promise<void> {
      for (let i = 0; i < rows.length; i += SLICE) await PLACE.run(redis, stateKeys(batchId), ['scheduled', Math.round(dueAt), ...rows.slice(i, i + SLICE)]);
    },

    /**
     * Queues rows: their state becomes queued (with `dueAt` when they belong to a step that is due), then their jobs
     * are added. A row queued or running already keeps its job, except one whose job is lost (its state says queued, no
     * job holds it): that one gets a job again. `planned` rows are saved first where the batch has none yet. `waiter`:
     * the job that waits for these rows' ends (a step), kept with each row so that its end wakes it.
     */
    async queue(queue: Queue<RowJobData>, batchId: string, rows: readonly { row: number; planned?: PlannedRow }[], options: { dueAt?: number; jobName?: string; waiter?: RowWaiter } = {}): Promise<QueueResult[]> {
      const results: QueueResult[] = [];
      for (let i = 0; i < rows.length; i += SLICE / 2) {
        const slice = rows.slice(i, i + SLICE / 2);
        const args = slice.flatMap(({ row, planned }) => [row, planned === undefined ? '' : JSON.stringify(planned)]);
        const answers = (await QUEUE.run(
          redis,
          [keys.rowStates(batchId), keys.batch(batchId), keys.outcomes(batchId), keys.rows(batchId), keys.rowWaiters(batchId)],
          [options.dueAt === undefined ? '' : Math.round(options.dueAt), options.waiter === undefined ? '' : encodeRowWaiter(options.waiter), ...args],
        )) as QueueResult[];
        const toAdd = slice.filter((_, index) => answers[index] === 'queued');
        if (toAdd.length > 0) {
          const names = await Promise.all(toAdd.map(async ({ row, planned }) => options.jobName ?? planned?.actionName ?? (await redis.hget(keys.rows(batchId), String(row)).then((json) => (json === null ? 'row' : (JSON.parse(json) as PlannedRow).actionName)))));
          await queue.addBulk(toAdd.map(({ row }, index) => ({ name: names[index] ?? 'row', data: { batchId, row }, opts: rowJobOptions(batchId, row) })));
        }
        for (const [index, { row }] of slice.entries()) {
          if (answers[index] === 'active') await lifecycle.requeueIfLost(queue, batchId, row);
        }
        results.push(...answers);
      }
      return results;
    },

    /** A worker takes the row (see RowStart); `nowMs` is the service clock's time, less its uncertainty. */
    async start(batchId: string, row: number, nowMs: number): Promise<RowStart> {
      const [kind, a, b] = (await START.run(redis, [keys.rowStates(batchId), keys.batch(batchId), keys.outcomes(batchId)], [row, Math.floor(nowMs)])) as string[];
      if (kind === 'ended') return { kind };
      if (kind === 'not-queued') return { kind, state: a as 'planned' | 'scheduled', ...(b === undefined || b === '' ? {} : { dueAt: Number(b) }) };
      if (kind === 'not-due') return { kind, dueAt: Number(a) };
      return { kind: 'go' };
    },

    /** A running row waits again (backoff, 429, stopped batch, a request that may still land): queued. */
    async park(batchId: string, row: number): Promise<void> {
      await PARK.run(redis, stateKeys(batchId), [row]);
    },

    /**
     * Records the row's one outcome and ends it, from any state, or only from `from` (a row that will not run ends
     * only while nothing runs it: `cancel` refuses a running row, a lifecycle's "will not run" a queued one too).
     */
    async end(outcome: RowOutcome, from?: readonly (RowState | 'none')[]): Promise<EndResult> {
      const json = JSON.stringify(rowOutcomeSchema.parse(outcome));
      const answer = (await END.run(
        redis,
        [keys.rowStates(outcome.batchId), keys.batch(outcome.batchId), keys.outcomes(outcome.batchId), keys.inflight(outcome.batchId), keys.finishedPerSecond(outcome.batchId), keys.rowWaiters(outcome.batchId), keys.rowRuns(outcome.batchId), keys.unrecordedEnds(outcome.batchId)],
        [outcome.row, json, outcome.outcome, outcome.finishedAt, from === undefined ? '*' : from.join(',')],
      )) as [number, string?, number?];
      if (answer[0] === 0) return { kind: 'had-outcome' };
      if (answer[0] === -1) return { kind: 'refused', state: (answer[1] ?? 'none') as RowState | 'none' };
      const waiter = decodeRowWaiter(answer[1]);
      return { kind: 'recorded', batchFinished: answer[0] === 2, run: answer[2] ?? 0, ...(waiter === undefined ? {} : { waiter }) };
    },

    /**
     * Forgets the row's outcome when it is still `expected` (the outcome read before: its kind and when it was
     * recorded) and reopens it to `to` (retry): true when it did.
     */
    async reopen(batchId: string, row: number, expected: Pick<RowOutcome, 'outcome' | 'finishedAt'>, to: 'queued' | 'planned', dueAt?: number): Promise<boolean> {
      const scriptKeys = [keys.rowStates(batchId), keys.batch(batchId), keys.outcomes(batchId), keys.finishedPerSecond(batchId), keys.rowRuns(batchId), keys.reopenedOutcomes(batchId)];
      return (await REOPEN.run(redis, scriptKeys, [row, expected.outcome, to, dueAt === undefined ? '' : Math.round(dueAt), expected.finishedAt])) === 1;
    },

    /**
     * Queues the row again, marked `recovered` (it confirms on the service before acting), when it is lost: its state
     * says queued or running, and no job holds it, and it still has no outcome once the job was seen missing (a worker
     * records the outcome before its job is removed). `beforeQueue` runs once the row is known lost and before its job
     * exists (retry reopens the batch there). True when it was queued again.
     */
    async requeueIfLost(queue: Queue<RowJobData>, batchId: string, row: number, beforeQueue?: () => Promise<void>): Promise<boolean> {
      const { state } = await lifecycle.statusOf(batchId, row);
      if (state !== 'queued' && state !== 'running') return false;
      if ((await queue.getJob(rowJobId(batchId, row))) !== undefined) return false;
      if ((await redis.hexists(keys.outcomes(batchId), String(row))) === 1) return false;
      const json = await redis.hget(keys.rows(batchId), String(row));
      if (json === null) return false;
      await beforeQueue?.();
      await queue.add((JSON.parse(json) as PlannedRow).actionName, { batchId, row, recovered: true }, rowJobOptions(batchId, row));
      return true;
    },

    async statusOf(batchId: string, row: number): Promise<RowStatus> {
      return parseRowStatus(await redis.hget(keys.rowStates(batchId), String(row)));
    },

    /** The run of every row `retry` reopened (the others are in their first, 0): what a recorded end said of each. */
    async runs(batchId: string): Promise<Map<number, number>> {
      const raw = await redis.hgetall(keys.rowRuns(batchId));
      return new Map(Object.entries(raw).map(([row, run]) => [Number(row), Number(run)]));
    },

    /** The states of these rows, one round trip per thousand. */
    async statusesOf(batchId: string, rows: readonly number[]): Promise<Map<number, RowStatus>> {
      const found = new Map<number, RowStatus>();
      for (let i = 0; i < rows.length; i += SLICE) {
        const slice = rows.slice(i, i + SLICE);
        if (slice.length === 0) continue;
        const values = await redis.hmget(keys.rowStates(batchId), ...slice.map(String));
        for (const [index, value] of values.entries()) found.set(slice[index]!, parseRowStatus(value));
      }
      return found;
    },

    /** Every row of the batch (1..total) with its state, in order, read in slices: a large batch is never held at once. */
    async *statuses(batchId: string): AsyncIterable<{ row: number } & RowStatus> {
      const total = Number((await redis.hget(keys.batch(batchId), 'total')) ?? 0);
      for (let first = 1; first <= total; first += SLICE) {
        const rows: number[] = [];
        for (let row = first; row < first + SLICE && row <= total; row += 1) rows.push(row);
        for (const [row, status] of await lifecycle.statusesOf(batchId, rows)) yield { row, ...status };
      }
    },
  };
  return lifecycle;
}

export type RowLifecycle = ReturnType<typeof createRowLifecycle>;

/** The per-state counts of a batch record's fields (`s:<state>`). */
export function rowStateCountsOf(raw: Record<string, string | undefined>): RowStateCounts {
  const counts = { planned: 0, scheduled: 0, queued: 0, running: 0 };
  for (const state of OPEN_ROW_STATES) counts[state] = Math.max(0, Number(raw[`s:${state}`] ?? 0));
  return counts;
}
