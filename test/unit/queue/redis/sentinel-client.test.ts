import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SentinelClient } from '../../../../src/queue/redis/sentinel-client.js';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../../helpers/redis-cluster.js';

let sentinel: TestRedisSentinel;
beforeAll(async () => {
  sentinel = await startTestRedisSentinel();
}, 60_000);
afterAll(async () => {
  await sentinel?.stop();
});

/** A client of the test master, counting its connections to a master the sentinels named, and how often it was ready. */
function client(): { redis: SentinelClient; connections: () => number; readies: () => number } {
  const redis = new SentinelClient({ sentinels: sentinel.sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })), name: sentinel.masterName, maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  let connections = 0;
  let readies = 0;
  redis.on('connect', () => {
    connections += 1;
  });
  redis.on('ready', () => {
    readies += 1;
  });
  return { redis, connections: () => connections, readies: () => readies };
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SentinelClient', () => {
  it('asks the sentinels again after a switch announced while it was still connecting (it may be on its way to the old master)', async () => {
    const { redis, connections, readies } = client();
    try {
      // Announced while the client resolves the master: it may have been told the old one just before.
      await new Promise((resolve) => redis.once('connecting', resolve));
      expect(redis.status).toBe('connecting');
      redis.switchAnnounced();
      await until(() => readies() >= 1 && redis.status === 'ready');
      // Connected twice: the first, begun before the switch, was dropped before its commands went; the second stays.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(connections()).toBe(2);
      expect(readies()).toBe(1);
      expect(await redis.ping()).toBe('PONG');
    } finally {
      redis.disconnect();
    }
  });

  it('reconnects at once when a switch is announced while it is connected, and keeps the commands sent meanwhile', async () => {
    const { redis, readies } = client();
    try {
      await until(() => redis.status === 'ready');
      const before = readies();
      redis.switchAnnounced();
      const written = redis.set(`sentinel-client-${Date.now()}`, 'kept');
      await until(() => readies() === before + 1);
      expect(await written).toBe('OK');
    } finally {
      redis.disconnect();
    }
  });
});
