import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBullmq } from '../../../../src/queue/redis/close-bullmq.js';
import { startTestRedis, type TestRedis } from '../../../helpers/redis-server.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe('closeBullmq', () => {
  // Plain worker.close() here ends the test run with an uncaught "Connection is closed" emitted on a RedisConnection
  // (BullMQ's version check answered by the socket the close just shut).
  it('closes workers and queues at any moment of their start without an uncaught "Connection is closed"', async () => {
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const prefix = redis.prefix();
    let closed = 0;
    for (let i = 0; i < 120; i += 1) {
      const worker = new Worker('early', async () => undefined, { connection, prefix });
      const queue = new Queue('early', { connection, prefix });
      worker.on('error', () => undefined);
      queue.on('error', () => undefined);
      // From "just created" to "just ready": the moment of the version check is somewhere in between.
      await new Promise((resolve) => setTimeout(resolve, (i % 40) / 10));
      await Promise.all([closeBullmq(worker, { graceMs: 1000 }), closeBullmq(queue)]);
      closed += worker.closing === undefined ? 0 : 1;
    }
    expect(closed).toBe(120);
  }, 60_000);
});
