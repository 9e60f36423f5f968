import { Redis, type RedisOptions } from 'ioredis';

/**
 * One PING over a fresh connection that never retries, so a dead Redis is reported at once instead of ioredis
 * reconnecting forever. Resolves undefined when Redis answered, else why it did not. The whole probe (connect, the
 * readiness check, PING) is bounded by `timeoutMs`: a server that accepts connections but never answers (stopped with
 * SIGSTOP, wedged, or not Redis at all) is reported like a closed port, not waited on forever. ioredis's
 * `connectTimeout` alone covers only the TCP connect.
 */
export async function probeRedis(options: RedisOptions, timeoutMs = 2000): Promise<string | undefined> {
  const client = new Redis({
    ...options,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  const check = async (): Promise<string | undefined> => {
    try {
      await client.connect();
      const answer = await client.ping();
      return answer === 'PONG' ? undefined : `unexpected answer to PING: ${answer}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`no answer within ${timeoutMs} ms: it accepts connections but does not reply (stopped, overloaded, or not Redis)`),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([check(), silent]);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
