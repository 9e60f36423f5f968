import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../../src/core/logger.js';
import { openRedis, RedisUnavailableError } from '../../../../src/queue/redis/open-redis.js';
import { probeCluster } from '../../../../src/queue/redis/probe-cluster.js';
import { parseRedisUrl } from '../../../../src/queue/redis/redis-target.js';
import { freePort, startTestRedis } from '../../../helpers/redis-server.js';

describe('openRedis against servers that are not there', () => {
  it.each([
    ['a cluster', (port: number) => `redis+cluster://127.0.0.1:${port}`],
    ['Sentinel', (port: number) => `redis+sentinel://127.0.0.1:${port}/mymaster`],
  ])('reports %s that does not answer at once (exit code 3), instead of retrying forever', async (_kind, url) => {
    const port = await freePort();
    const started = Date.now();
    const error = await openRedis({ url: url(port), dataDir: '.', logger: createSilentLogger() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as RedisUnavailableError).exitCode).toBe(3);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('probeCluster', () => {
  it('takes the word of the first seed that answers, skipping seeds that refuse the connection', async () => {
    const redis = await startTestRedis();
    try {
      const dead = await freePort();
      const target = parseRedisUrl(`redis+cluster://127.0.0.1:${dead},127.0.0.1:${redis.port}`);
      if (target.kind !== 'cluster') throw new Error('not a cluster target');
      // A plain redis-server answers CLUSTER INFO with an error: that answer is the problem, not "nobody answered".
      const problem = await probeCluster(target, 2000);
      expect(problem).toMatch(/cluster support disabled/i);
      expect(problem).not.toMatch(/no node of the cluster answered/);
    } finally {
      await redis.stop();
    }
  });
});
