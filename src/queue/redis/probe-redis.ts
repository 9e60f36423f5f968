import { Redis, type RedisOptions } from 'ioredis';

/**
 * One PING over a fresh connection that never retries, so a dead Redis is reported at once instead of ioredis
 * reconnecting forever. Resolves undefined when Redis answered, else why it did not.
 */
export async function probeRedis(options: RedisOptions, timeoutMs = 2000): Promise<string | undefined> {
  const client = new Redis({
    ...options,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const answer = await client.ping();
    return answer === 'PONG' ? undefined : `unexpected answer to PING: ${answer}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    // A connection that failed is already closed: disconnect() would arm ioredis' 2 s "still open" timer that nothing
    // clears, keeping every command that probed a not-yet-started embedded Redis alive 2 s longer.
    if (client.status !== 'end') client.disconnect();
  }
}
