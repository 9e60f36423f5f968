import { Redis, type RedisOptions } from 'ioredis';

/**
 * One PING over a fresh connection that never retries, so a dead Redis is reported at once instead of ioredis
 * reconnecting forever. Resolves undefined when Redis answered, else why it did not. The whole probe (connect, the
 * readiness check, PING) is bounded by `timeoutMs`: a server that accepts connections but never answers (stopped with
 * SIGSTOP, wedged, or not Redis at all) is reported like a closed port, not waited on forever. ioredis's
 * `connectTimeout` alone covers only the TCP connect.
 */
export async function probeRedis(options: RedisOptions, timeoutMs = 2000): Promise<string | undefined> {
  return (await probeRedisAnswer(options, timeoutMs))?.message;
}

/** Why a probe failed; `silent` when the server took the connection and then answered nothing in time. */
export interface RedisProbeProblem {
  message: string;
  silent: boolean;
}

/** What a probe asks once connected: undefined when the answer is right, else what is wrong with it. */
export type ProbeQuestion = (client: Redis) => Promise<string | undefined>;

const ping: ProbeQuestion = async (client) => {
  const answer = await client.ping();
  return answer === 'PONG' ? undefined : `unexpected answer to PING: ${answer}`;
};

/** probeRedis, telling a silent server apart from a refused or failed connection; `ask` defaults to PING. */
export async function probeRedisAnswer(options: RedisOptions, timeoutMs = 2000, ask: ProbeQuestion = ping): Promise<RedisProbeProblem | undefined> {
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
  let connected = false;
  const check = async (): Promise<RedisProbeProblem | undefined> => {
    try {
      await client.connect();
      const wrong = await ask(client);
      return wrong === undefined ? undefined : { message: wrong, silent: false };
    } catch (error) {
      return { message: error instanceof Error ? error.message : String(error), silent: connected };
    }
  };
  client.once('connect', () => (connected = true));
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<RedisProbeProblem>((resolve) => {
    timer = setTimeout(
      () => resolve({ message: `no answer within ${timeoutMs} ms: it accepts connections but does not reply (stopped, overloaded, or not Redis)`, silent: true }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([check(), silent]);
  } finally {
    clearTimeout(timer);
    // A connection that failed is already closed: disconnect() would arm ioredis' 2 s "still open" timer that nothing
    // clears, keeping every command that probed a not-yet-started embedded Redis alive 2 s longer.
    if (client.status !== 'end') client.disconnect();
  }
}
