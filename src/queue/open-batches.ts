import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient } from './redis/lua-script.js';

/**
 * The batches not done yet: a row still to end, or an end not yet in the audit trail (unrecorded-ends.ts). What the
 * periodic looks go through (the lost-row sweep, the audit catch-up), however old the batch: not the newest N, which
 * a busy week of step batches pushes an old open batch out of.
 *
 * A batch joins when created and when `retry` reopens a row (before and after: the reopened row's end comes later),
 * and leaves once every row has ended and every end is recorded (the audit catch-up decides, in row-audit.ts). The
 * index sits in another hash slot than the batch, so leaving is conditional: the batch's score (a counter that every
 * joining raises) must still be the one read before the batch was looked at; a reopening in between raised it, and
 * the batch stays.
 */

// KEYS: the index. ARGV: batch, the score read before the batch was looked at.
const LEAVE = luaScript('OpenBatchLeave', `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0`);

export function createOpenBatches(redis: RedisClient, keys: Pick<QueueKeys, 'openBatches'>) {
  const open = {
    /** The batch is open from now on (created, or a row reopened). */
    async join(batchId: string): Promise<void> {
      await redis.zincrby(keys.openBatches, 1, batchId);
    },

    /** The open batches with their marks, 500 at a time (a batch that leaves meanwhile may shift one to the next look). */
    async *list(): AsyncIterable<{ batchId: string; mark: number }> {
      for (let first = 0; ; first += 500) {
        const slice = await redis.zrange(keys.openBatches, first, first + 499, 'WITHSCORES');
        for (let i = 0; i + 1 < slice.length; i += 2) yield { batchId: slice[i]!, mark: Number(slice[i + 1]) };
        if (slice.length < 1000) return;
      }
    },

    /** The open batches' ids. */
    async ids(): Promise<string[]> {
      const ids: string[] = [];
      for await (const { batchId } of open.list()) ids.push(batchId);
      return ids;
    },

    /** The batch leaves unless it joined again since `mark` was read; true when it left. */
    async leave(batchId: string, mark: number): Promise<boolean> {
      return (await LEAVE.run(redis, [keys.openBatches], [batchId, mark])) === 1;
    },
  };
  return open;
}

export type OpenBatches = ReturnType<typeof createOpenBatches>;
