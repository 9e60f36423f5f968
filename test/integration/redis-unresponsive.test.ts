import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeRedis } from '../../src/queue/redis/probe-redis.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

/** A port that accepts connections and never answers a byte. */
async function startSilentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${address.port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a Redis that accepts connections but does not answer', () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  beforeAll(async () => {
    silent = await startSilentServer();
  });
  afterAll(async () => {
    await silent.close();
  });

  it('is reported by the probe within its time bound, saying what happened', async () => {
    const started = Date.now();
    const problem = await probeRedis({ host: '127.0.0.1', port: Number(new URL(silent.url).port) }, 500);
    expect(problem).toMatch(/no answer within 500 ms: it accepts connections but does not reply/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([['status'], ['submit', 'jobs/examples/hr-offboarding.csv'], ['worker', '--sim'], ['run', '--sim', 'jobs/examples/hr-offboarding.csv']])('makes `seatflow %s` exit 3 with what happened and what to do', async (...args) => {
    const result = await runSeatflow(args.filter((a): a is string => a !== undefined), { REDIS_URL: silent.url, SMARTSHEET_ACCESS_TOKEN: 'sim-admin-token', SMARTSHEET_API_BASE: 'http://127.0.0.1:9/2.0' });
    expect(result.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/?: no answer within 3000 ms/);
    expect(result.stderr).toMatch(/not stopped or overloaded/);
    expect(result.code).toBe(3);
  });
});

describe('a redis-server stopped with SIGSTOP', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
    redis.signal('SIGSTOP');
  });
  afterAll(async () => {
    redis.signal('SIGCONT');
    await redis.stop();
  });

  it('makes `seatflow status` exit 3 within a few seconds instead of hanging', async () => {
    const started = Date.now();
    const result = await runSeatflow(['status'], { REDIS_URL: redis.url });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/no answer within 3000 ms/);
    // The bound is 3 s; the rest is starting node (generous on a loaded machine, far below the minutes it hung).
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
