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
  it('waits for a replica while one may only be slow, then lets the next rows go without the wait for a while', async () => {
    let clock = 0;
    const attempts = createRowAttempts(client, createQueueKeys(`rq${process.pid}`), { count: 1, timeoutMs: 20 }, () => clock);
    const start = (row: number) => attempts.start('b1', row, { settleMs: 0, countAttempt: true });
    const before = await waitsRun();
    // Rows 1-3 over 12 s of missing replica: each waits (a lag of a busy replica must not turn the waits off).
    for (const [row, at] of [[1, 0], [2, 6_000], [3, 12_000]] as const) {
      clock = at;
      expect(await start(row)).toMatchObject({ kind: 'go', replicated: false });
    }
    expect(await waitsRun()).toBe(before + 3);
    // Missing for longer than the patience: the next rows, within 30 s, go without the wait.
    for (let row = 4; row <= 7; row += 1) {
      clock += 5_000;
      expect(await start(row)).toMatchObject({ kind: 'go', replicated: false });
    }
    expect(await waitsRun()).toBe(before + 3);
    // After the quiet period, rows wait for a replica again.
    clock += 30_000;
    await start(8);
    expect(await waitsRun()).toBe(before + 4);
  });
});
