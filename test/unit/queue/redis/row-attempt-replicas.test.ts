import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueKeys } from '../../../../src/queue/queue-keys.js';
import { createRowAttempts } from '../../../../src/queue/row-attempt.js';
import { startTestRedis, type TestRedis } from '../../../helpers/redis-server.js';

let master: TestRedis;
let client: Redis;

beforeAll(async () => {
  master = await startTestRedis({ volatile: true });
  client = new Redis(master.url);
});
afterAll(async () => {
  client.disconnect();
  await master.stop();
});

/** How many WAIT commands the server has run (its command statistics), so no test depends on timing. */
async function waitsRun(): Promise<number> {
  const stats = String(await client.info('commandstats'));
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe('a row attempt with replicas wanted and none there', () => {
  it('waits for a replica at the first row, then lets the next rows go without the wait for a while', async () => {
    const attempts = createRowAttempts(client, createQueueKeys(`rq${process.pid}`), { count: 1, timeoutMs: 20 });
    const before = await waitsRun();
    const first = await attempts.start('b1', 1, { settleMs: 0, countAttempt: true });
    expect(first).toMatchObject({ kind: 'go', replicated: false });
    expect(await waitsRun()).toBe(before + 1);
    for (let row = 2; row <= 5; row += 1) {
      expect(await attempts.start('b1', row, { settleMs: 0, countAttempt: true })).toMatchObject({ kind: 'go', replicated: false });
    }
    // Without the quiet period every row would have waited for the missing replica again.
    expect(await waitsRun()).toBe(before + 1);
  });
});
