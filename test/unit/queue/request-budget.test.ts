import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/core/clock.js';
import { createQueueKeys, tokenKey } from '../../../src/queue/queue-keys.js';
import { createRequestBudget } from '../../../src/queue/request-budget.js';
import { startTestRedis, type TestRedis } from '../../helpers/redis-server.js';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startTestRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  await redis.quit();
  await server.stop();
});

/** A clock whose sleep only records what it was asked to wait. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => Date.now(), sleep: async (ms) => void waits.push(ms) };
}

describe('createRequestBudget', () => {
  // 60 per 60 s without headroom: one call per second.
  const rate = { requests: 60, perSeconds: 60, headroom: 0 };

  it('lets a small burst through, then paces one call per interval across every client of the token', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(server.prefix());
    const a = createRequestBudget({ redis, keys, accessToken: 'tok', rate, burst: 2, clock });
    const b = createRequestBudget({ redis, keys, accessToken: 'tok', rate, burst: 2, clock });
    for (let i = 0; i < 3; i += 1) {
      await a.beforeRequest({ operation: 'x' });
      await b.beforeRequest({ operation: 'x' });
    }
    // 6 reservations: 2 free, then waits of about 1 s, 2 s, 3 s, 4 s (the two clients share one schedule).
    expect(clock.waits).toHaveLength(4);
    clock.waits.forEach((wait, i) => expect(Math.abs(wait - (i + 1) * 1000)).toBeLessThan(200));
    expect((await a.counters()).calls).toBe(6);
  });

  it('charges an upload ten slots', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(server.prefix());
    const budget = createRequestBudget({ redis, keys, accessToken: 'tok', rate, burst: 1, clock });
    await budget.beforeRequest({ operation: 'upload', cost: 10 });
    await budget.beforeRequest({ operation: 'x' });
    expect(clock.waits).toHaveLength(2);
    expect(Math.abs((clock.waits[0] ?? 0) - 9000)).toBeLessThan(200);
    expect(Math.abs((clock.waits[1] ?? 0) - 10_000)).toBeLessThan(200);
  });

  it('keeps separate budgets for separate tokens', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(server.prefix());
    const a = createRequestBudget({ redis, keys, accessToken: 'one', rate, burst: 1, clock });
    const b = createRequestBudget({ redis, keys, accessToken: 'two', rate, burst: 1, clock });
    await a.beforeRequest({ operation: 'x' });
    await b.beforeRequest({ operation: 'x' });
    expect(clock.waits).toEqual([]);
  });

  it('pauses every client of the token after a 429 for Retry-After', async () => {
    const clock = recordingClock();
    const keys = createQueueKeys(server.prefix());
    const a = createRequestBudget({ redis, keys, accessToken: 'tok', rate, clock });
    const b = createRequestBudget({ redis, keys, accessToken: 'tok', rate, clock });
    await a.onResponse({ operation: 'x', status: 429, errorCode: 4003, retryAfterMs: 5000 });
    const paused = await b.pausedFor();
    expect(paused).toBeGreaterThan(4000);
    expect(paused).toBeLessThanOrEqual(5250);
    // Redis time moves on while the fake clock "sleeps": end the pause by hand so that the loop can reserve.
    const done = b.beforeRequest({ operation: 'x' });
    await redis.del(keys.pause(tokenKey('tok')));
    await done;
    expect(clock.waits[0]).toBeGreaterThan(4000);
    expect((await b.counters()).rateLimited).toBe(1);
  });

  it('never writes the token itself to Redis', async () => {
    const prefix = server.prefix();
    const budget = createRequestBudget({ redis, keys: createQueueKeys(prefix), accessToken: 'secret-token-value', rate, clock: recordingClock() });
    await budget.beforeRequest({ operation: 'x' });
    await budget.pause(10);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toContain('secret-token-value');
  });
});
