import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../../src/core/logger.js';
import { openRedis, RedisUnavailableError } from '../../../../src/queue/redis/open-redis.js';
import { freePort } from '../../../helpers/redis-server.js';

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
