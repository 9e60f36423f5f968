import { QueueKeys as BullQueueKeys } from 'bullmq';
import type { BatchRecord } from './batch-store.js';
import type { RedisClient } from './redis/lua-script.js';
import { createRedisClock } from './redis/redis-clock.js';

/** BullMQ scores a delayed job by its due time in ms times this (the low bits order jobs due in the same ms). */
const SCORE_PER_MS = 0x1000;

export interface ParkedRow {
  row: number;
  /** When BullMQ will hand the row out again (ms since the epoch). */
  dueAtMs: number;
}

/**
 * Rows of a batch that wait as delayed jobs due later than `boundMs` from now (Redis time): more than seatflow ever
 * parks a row for, so something dated them wrongly, typically a machine whose clock ran far ahead. Reads only the
 * far end of the queue's delayed set, so it costs little however large the batch.
 */
export async function rowsParkedBeyond(redis: RedisClient, prefix: string, batch: BatchRecord, boundMs: number, limit = 1000): Promise<ParkedRow[]> {
  const nowMs = await createRedisClock(redis).now();
  const delayedKey = new BullQueueKeys(prefix).toKey(batch.queueName, 'delayed');
  const found = await redis.zrangebyscore(delayedKey, `(${(nowMs + boundMs + 1) * SCORE_PER_MS}`, '+inf', 'WITHSCORES', 'LIMIT', 0, limit);
  const rows: ParkedRow[] = [];
  for (let i = 0; i + 1 < found.length; i += 2) {
    const jobId = found[i] ?? '';
    if (!jobId.startsWith(`${batch.id}-`)) continue;
    rows.push({ row: Number(jobId.slice(batch.id.length + 1)), dueAtMs: Math.floor(Number(found[i + 1]) / SCORE_PER_MS) });
  }
  return rows;
}
