import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import type { StartReferenceServerOptions } from '../../src/server/index.js';
import { createBatchHarness, type BatchHarness } from './batch-harness.js';
import { startTestRedis, type TestRedis } from './redis-server.js';

/**
 * One real redis-server for the test file, and a fresh harness (reference server, queue prefix, data directory) per
 * test, closed after it.
 */
export function useBatchHarnesses(): { redis: () => TestRedis; open: (serverOptions?: StartReferenceServerOptions) => Promise<BatchHarness> } {
  let redis: TestRedis | undefined;
  let current: BatchHarness | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const started = (): TestRedis => {
    if (redis === undefined) throw new Error('the test Redis is not started yet');
    return redis;
  };
  return {
    redis: started,
    open: async (serverOptions) => {
      current = await createBatchHarness(started(), serverOptions);
      return current;
    },
  };
}

/** Each user the batch was meant to change shows exactly one change of `operation` in the server's mutation log. */
export async function expectEachUserChangedOnce(h: BatchHarness, outcomes: RowOutcome[], operation: string): Promise<void> {
  // Changed by this batch: succeeded, including rows found done after an uncertain attempt (that attempt made it).
  const changed = outcomes.filter((o) => o.outcome === 'succeeded');
  const mutations = (await h.mutations()).filter((m) => m.operation.toLowerCase() === operation.toLowerCase());
  const perUser = new Map<number, number>();
  for (const m of mutations) if (m.userId !== undefined) perUser.set(m.userId, (perUser.get(m.userId) ?? 0) + 1);
  for (const outcome of changed) expect(perUser.get(outcome.userId ?? -1), `user ${outcome.email}`).toBe(1);
  expect([...perUser.values()].every((n) => n === 1)).toBe(true);
  expect(mutations.length).toBe(changed.length);
}
