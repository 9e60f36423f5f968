import type { OpenBatches } from './open-batches.js';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';

/**
 * Ended rows whose end is not yet in the audit trail: an outbox. A row's end and its note are one write (the END
 * script of row-lifecycle.ts); the note goes when the entry is appended. So a process that dies, or a Redis that stops
 * answering, between the two leaves a note that says so, instead of an absence nobody can see. The audit catch-up
 * finds the notes in the open batches (open-batches.ts): a batch with a note stays open.
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

function parseNote(row: number, note: string): UnrecordedEnd {
  const [run, endedAt] = note.split('@');
  return { row, run: Number(run), endedAtMs: Number(endedAt) };
}

export function createUnrecordedEnds(redis: RedisClient, keys: Pick<QueueKeys, 'unrecordedEnds'>, open: Pick<OpenBatches, 'list'>) {
  return {
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

    /** How many ends are unrecorded, over every open batch (what `audit verify` reports as pending). */
    async count(): Promise<number> {
      let total = 0;
      for await (const { batchId } of open.list()) total += await redis.hlen(keys.unrecordedEnds(batchId));
      return total;
    },

    /** The row's run's end is in the trail now. */
    async recorded(batchId: string, row: number, run: number): Promise<void> {
      await RECORDED.run(redis, [keys.unrecordedEnds(batchId)], [row, run]);
    },
  };
}

export type UnrecordedEnds = ReturnType<typeof createUnrecordedEnds>;
