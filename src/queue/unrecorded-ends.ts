import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';

/**
 * Ended rows whose end is not yet in the audit trail: an outbox. A row's end and its note are one write (the END
 * script of row-lifecycle.ts); the note goes when the entry is appended. So a process that dies, or a Redis that stops
 * answering, between the two leaves a note that says so, instead of an absence nobody can see.
 *
 * The catch-up finds the notes through an index of the batches that may hold one. A batch joins it when created and
 * when `retry` reopens a row (before and after: the reopened row's end comes later), and leaves it once every row has
 * ended and no note is left. The index sits in another hash slot than the batch, so leaving is conditional: the batch's
 * score (a counter that every joining raises) must still be the one the catch-up read before it looked at the batch; a
 * reopening in between raised it, and the batch stays.
 */
export interface UnrecordedEnd {
  row: number;
  /** The row's run the end closed (0, then one more per `retry` that reopened the row). */
  run: number;
  /** When the end was recorded, on Redis's clock. */
  endedAtMs: number;
}

// KEYS: the batch's notes. ARGV: row, run. Removes the note only if it is that run's (a later run's end is another).
const RECORDED = luaScript('UnrecordedEndRecorded', `
local note = redis.call('HGET', KEYS[1], ARGV[1])
if note and string.match(note, '^[^@]*') == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`);

// KEYS: the index. ARGV: batch, the score read before the batch was looked at.
const LEAVE = luaScript('UnrecordedEndsLeave', `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`);

function parseNote(row: number, note: string): UnrecordedEnd {
  const [run, endedAt] = note.split('@');
  return { row, run: Number(run), endedAtMs: Number(endedAt) };
}

export function createUnrecordedEnds(redis: RedisClient, keys: Pick<QueueKeys, 'unrecordedEnds' | 'batchesWithUnrecordedEnds'>) {
  const ends = {
    /** The batch may hold unrecorded ends from now on (created, or a row reopened). */
    async watch(batchId: string): Promise<void> {
      await redis.zincrby(keys.batchesWithUnrecordedEnds, 1, batchId);
    },

    /** The watched batches with their scores, 500 at a time (a batch that leaves meanwhile may shift one to the next look). */
    async *batches(): AsyncIterable<{ batchId: string; mark: number }> {
      for (let first = 0; ; first += 500) {
        const slice = await redis.zrange(keys.batchesWithUnrecordedEnds, first, first + 499, 'WITHSCORES');
        for (let i = 0; i + 1 < slice.length; i += 2) yield { batchId: slice[i]!, mark: Number(slice[i + 1]) };
        if (slice.length < 1000) return;
      }
    },

    /** The batch's unrecorded ends. */
    async of(batchId: string): Promise<UnrecordedEnd[]> {
      const notes = await redis.hgetall(keys.unrecordedEnds(batchId));
      return Object.entries(notes).map(([row, note]) => parseNote(Number(row), note));
    },

    /** The row's note, if it has one. */
    async endOf(batchId: string, row: number): Promise<UnrecordedEnd | undefined> {
      const note = await redis.hget(keys.unrecordedEnds(batchId), String(row));
      return note === null ? undefined : parseNote(row, note);
    },

    /** How many ends are unrecorded, over every watched batch (what `audit verify` reports as pending). */
    async count(): Promise<number> {
      let total = 0;
      for await (const { batchId } of ends.batches()) total += await redis.hlen(keys.unrecordedEnds(batchId));
      return total;
    },

    /** The row's run's end is in the trail now. */
    async recorded(batchId: string, row: number, run: number): Promise<void> {
      await RECORDED.run(redis, [keys.unrecordedEnds(batchId)], [row, run]);
    },

    /** The batch leaves the index unless it joined again since `mark` was read; true when it left. */
    async leave(batchId: string, mark: number): Promise<boolean> {
      return (await LEAVE.run(redis, [keys.batchesWithUnrecordedEnds], [batchId, mark])) === 1;
    },
  };
  return ends;
}

export type UnrecordedEnds = ReturnType<typeof createUnrecordedEnds>;
