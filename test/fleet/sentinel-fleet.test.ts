import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedisSentinel, type TestRedisSentinel } from '../helpers/redis-cluster.js';
import { expectFleetDidItsWork, runFleetScenario } from './fleet-scenario.js';

describe('a fleet on Redis behind Sentinel (1 master, 1 replica, 3 sentinels)', () => {
  let sentinel: TestRedisSentinel | undefined;
  beforeAll(async () => {
    sentinel = await startTestRedisSentinel(1000);
  }, 60_000);
  afterAll(async () => {
    await sentinel?.stop();
  });

  it('finishes a batch through its master SIGKILLed mid-batch (the sentinels promote the replica) and a SIGKILLed worker', async () => {
    const s = sentinel as TestRedisSentinel;
    const result = await runFleetScenario({
      url: s.url,
      async failover() {
        await s.master.kill();
        return `master on port ${s.master.port}`;
      },
      async scanKeys(pattern) {
        const deadline = Date.now() + 30_000;
        while ((await s.currentMasterPort()) !== s.replica.port) {
          if (Date.now() > deadline) throw new Error('the sentinels did not promote the replica');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const client = s.nodeClient(s.replica.port);
        try {
          const found: { key: string; slot: number }[] = [];
          let cursor = '0';
          do {
            const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
            cursor = next;
            for (const key of keys) found.push({ key, slot: 0 });
          } while (cursor !== '0');
          return found;
        } finally {
          client.disconnect();
        }
      },
      slotOf: async () => undefined,
    });
    expect(await s.currentMasterPort()).toBe(s.replica.port);
    expectFleetDidItsWork(result);
  }, 100_000);
});
