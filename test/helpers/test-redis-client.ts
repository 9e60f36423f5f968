import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startTestRedis, type TestRedis } from './redis-server.js';

/** One test redis-server for the file and one client of it, started before its tests and stopped after them. */
export function useTestRedisClient(): { readonly server: TestRedis; readonly client: Redis } {
  let server: TestRedis | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    server = await startTestRedis();
    client = new Redis(server.url);
  });
  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the test Redis is not started yet');
      return server;
    },
    get client() {
      if (client === undefined) throw new Error('the test Redis is not started yet');
      return client;
    },
  };
}
