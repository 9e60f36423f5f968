import { afterEach, describe, expect, it } from 'vitest';
import { startTestRedisSentinel, type TestRedisSentinel } from '../helpers/redis-cluster.js';
import { expectFleetDidItsWork, runFleetScenario, type FleetTopology } from './fleet-scenario.js';

describe('a fleet on Redis behind Sentinel (1 master, 1 replica, 3 sentinels)', () => {
  let sentinel: TestRedisSentinel | undefined;
  afterEach(async () => {
    await sentinel?.stop();
    sentinel = undefined;
  });

  /** The topology with a given failover; keys are scanned on the promoted replica once the sentinels name it. */
  function topology(s: TestRedisSentinel, failover: () => Promise<string>, settle?: () => Promise<void>): FleetTopology {
    return {
      url: s.url,
      failover,
      ...(settle !== undefined ? { settle } : {}),
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
    };
  }

  it('finishes a batch through its master SIGKILLed mid-batch (the sentinels promote the replica) and a SIGKILLed worker', async () => {
    const s = (sentinel = await startTestRedisSentinel(1000));
    const result = await runFleetScenario(
      topology(s, async () => {
        await s.master.kill();
        return `master on port ${s.master.port} killed`;
      }),
    );
    expect(await s.currentMasterPort()).toBe(s.replica.port);
    expectFleetDidItsWork(result);
  }, 150_000);

  it('finishes a batch through a planned failover (SENTINEL FAILOVER: the old master takes writes for seconds, then drops them)', async () => {
    const s = (sentinel = await startTestRedisSentinel(1000));
    const result = await runFleetScenario(
      topology(s, async () => {
        const client = s.nodeClient(s.sentinels[0]!.port);
        try {
          expect(await client.call('SENTINEL', 'FAILOVER', s.masterName)).toBe('OK');
        } finally {
          client.disconnect();
        }
        return `master on port ${s.master.port} failed over`;
      }, async () => {
        // The old master is demoted about ten seconds after the switch and then drops what it took meanwhile: the
        // batch must be complete on the new master, not only on the old one.
        const deadline = Date.now() + 40_000;
        for (;;) {
          const client = s.nodeClient(s.master.port);
          client.on('error', () => undefined);
          const replication = await client.info('replication').catch(() => '').finally(() => client.disconnect());
          if (/role:slave/.test(replication) && /master_link_status:up/.test(replication)) return;
          if (Date.now() > deadline) throw new Error('the old master was not demoted in time');
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }),
    );
    expect(await s.currentMasterPort()).toBe(s.replica.port);
    expectFleetDidItsWork(result);
  }, 150_000);
});
