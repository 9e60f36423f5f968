import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../../src/core/logger.js';
import { PACKAGE_ROOT } from '../../../../src/core/config.js';
import { startOrJoinEmbeddedRedis } from '../../../../src/queue/redis/embedded-redis.js';
import { openRedis } from '../../../../src/queue/redis/open-redis.js';
import { probeRedis } from '../../../../src/queue/redis/probe-redis.js';
import { freePort } from '../../../helpers/redis-server.js';

const configFile = path.join(PACKAGE_ROOT, 'config', 'redis.conf');
const logger = createSilentLogger();
const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-data-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('startOrJoinEmbeddedRedis', () => {
  it('starts a private redis-server with append-only on and noeviction, under the data directory', async () => {
    const dir = dataDir();
    const redis = await startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
    expect(redis.started).toBe(true);
    const client = new Redis(redis.connection);
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
    expect(await client.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'noeviction']);
    expect(await client.config('GET', 'dir')).toEqual(['dir', path.join(dir, 'redis')]);
    await client.quit();
    await redis.release();
    expect(await probeRedis(redis.connection, 300)).toBeDefined();
  });

  it('lets a second process join, and the last one out stops it', async () => {
    const dir = dataDir();
    const first = await startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
    const second = await startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
    expect(second.started).toBe(false);
    const user = new Redis(second.connection);
    await user.set('k', 'v');
    await first.release();
    // Still used by the second: left running.
    expect(await probeRedis(first.connection, 300)).toBeUndefined();
    await user.quit();
    await second.release();
    expect(await probeRedis(first.connection, 300)).toBeDefined();
    // Data survives: the next start reads the append-only file.
    const third = await startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
    const again = new Redis(third.connection);
    expect(await again.get('k')).toBe('v');
    await again.quit();
    await third.release();
    expect(existsSync(path.join(dir, 'redis', 'appendonlydir'))).toBe(true);
  });

  it('refuses at once (exit 3) to join a private redis-server that is running but does not answer (SIGSTOP)', async () => {
    const dir = dataDir();
    const redis = await startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
    const pid = Number(readFileSync(path.join(dir, 'redis', 'redis.pid'), 'utf8').trim());
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const joining = startOrJoinEmbeddedRedis({ dataDir: dir, configFile, logger });
      await expect(joining).rejects.toMatchObject({ exitCode: 3, message: expect.stringMatching(/private redis-server \(pid \d+, unix:.*\) does not answer: no answer within 500 ms/) });
      await expect(joining).rejects.toMatchObject({ hint: expect.stringMatching(/kill -CONT \d+/) });
      // Before: it waited for the server to exit for the whole start timeout (15 s), then failed with exit 1.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      process.kill(pid, 'SIGCONT');
      await redis.release();
    }
  });

  it('says what to install when redis-server is missing', async () => {
    await expect(startOrJoinEmbeddedRedis({ dataDir: dataDir(), configFile, logger, serverBinary: 'redis-server-not-here' })).rejects.toThrow(/not installed/);
  });
});

describe('openRedis', () => {
  it('refuses a REDIS_URL nobody answers, with a clear message and exit code 3', async () => {
    const port = await freePort();
    const error = await openRedis({ url: `redis://127.0.0.1:${port}`, dataDir: dataDir(), logger }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REDIS_UNAVAILABLE', exitCode: 3 });
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
  });
});
