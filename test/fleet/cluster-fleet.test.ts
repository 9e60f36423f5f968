import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createQueueKeys } from '../../src/queue/queue-keys.js';
import { scriptOf } from '../../src/queue/redis/lua-script.js';
import { openRedis } from '../../src/queue/redis/open-redis.js';
import { startTestRedisCluster, type TestRedisCluster } from '../helpers/redis-cluster.js';
import { expectFleetDidItsWork, runFleetScenario } from './fleet-scenario.js';

describe('a fleet on a Redis Cluster (3 masters, 3 replicas)', () => {
  let cluster: TestRedisCluster | undefined;
  beforeAll(async () => {
    cluster = await startTestRedisCluster(3, 1500);
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('has a write reach a replica of its slot’s master before it answers, in one round trip (the in-flight marker’s rule)', async () => {
    const c = cluster as TestRedisCluster;
    const handle = await openRedis({ url: c.url, dataDir: c.dir, logger: createSilentLogger() });
    try {
      expect(handle.replicaAcks.count).toBe(1);
      const keys = createQueueKeys('fleet-wait');
      const mark = scriptOf("return redis.call('HSET', KEYS[1], ARGV[1], '1')");
      for (const batch of ['b0000000000a1', 'b0000000000b2', 'b0000000000c3']) {
        // A generous wait: on a loaded machine a replica may take longer than the production 500 ms to acknowledge.
        expect(await mark.runReplicated(handle.client, [keys.inflight(batch)], ['7'], { count: 1, timeoutMs: 15_000 })).toEqual({ result: 1, acknowledged: 1 });
      }
    } finally {
      await handle.close();
    }
  });

  it('finishes a batch through a master SIGKILLed mid-batch and a SIGKILLed worker: one outcome per row, each user changed once, no 429, every key in its slot', async () => {
    const c = cluster as TestRedisCluster;
    const result = await runFleetScenario({
      url: c.url,
      async failover({ queueKey }) {
        // The master of the queue's slot: every row's BullMQ moves go through it.
        const master = await c.masterOf(queueKey);
        await master.kill();
        return `master on port ${master.port}`;
      },
      async scanKeys(pattern) {
        await c.waitHealthy();
        // Every node still running, masters and replicas: a replica holds what its master has (keys seen twice count once).
        const found = new Map<string, number>();
        for (const node of c.nodes) {
          if (node.process.exitCode !== null || node.process.signalCode !== null) continue;
          const client = c.nodeClient(node.port);
          try {
            let cursor = '0';
            do {
              const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
              cursor = next;
              for (const key of keys) found.set(key, Number(await client.cluster('KEYSLOT', key)));
            } while (cursor !== '0');
          } finally {
            client.disconnect();
          }
        }
        return [...found].map(([key, slot]) => ({ key, slot }));
      },
      async slotOf(key) {
        const node = c.nodes.find((n) => n.process.exitCode === null && n.process.signalCode === null);
        const client = c.nodeClient(node?.port ?? 0);
        try {
          return Number(await client.cluster('KEYSLOT', key));
        } finally {
          client.disconnect();
        }
      },
    });
    expect(result.failedOver).toMatch(/^master on port/);
    expectFleetDidItsWork(result);
  }, 150_000);
});
