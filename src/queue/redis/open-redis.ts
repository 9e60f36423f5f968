import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { PACKAGE_ROOT } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { UsageError } from '../../core/seatflow-error.js';
import { startOrJoinEmbeddedRedis } from './embedded-redis.js';
import { probeRedis } from './probe-redis.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';

export { REDIS_UNAVAILABLE_EXIT_CODE, RedisUnavailableError } from './redis-unavailable-error.js';

export interface OpenRedisOptions {
  /** REDIS_URL; when absent, the embedded server. */
  url?: string | undefined;
  dataDir: string;
  logger: Logger;
  /** Default config/redis.conf of the package. */
  configFile?: string;
}

/** Where Redis is, and one command connection that waits through a restart instead of failing. */
export interface RedisHandle {
  connection: RedisOptions;
  description: string;
  /** For seatflow's own commands (records, outcomes, budget). BullMQ opens its own connections from `connection`. */
  client: Redis;
  /** Closes `client` and stops the embedded server when nobody else uses it. */
  close(): Promise<void>;
}

export async function openRedis(options: OpenRedisOptions): Promise<RedisHandle> {
  let connection: RedisOptions;
  let description: string;
  let release: () => Promise<void> = async () => undefined;
  if (options.url !== undefined && options.url !== '') {
    description = describeUrl(options.url);
    connection = optionsFromUrl(options.url);
    const problem = await probeRedis(connection, 3000);
    if (problem !== undefined) {
      throw new RedisUnavailableError('REDIS_UNAVAILABLE', `cannot reach Redis at ${description}: ${problem}`, {
        hint: 'Check REDIS_URL and that the server is running and answering (not stopped or overloaded: redis-cli -u REDIS_URL ping); nothing was queued or changed. Unset REDIS_URL to use a private redis-server.',
      });
    }
  } else {
    const embedded = await startOrJoinEmbeddedRedis({
      dataDir: options.dataDir,
      configFile: options.configFile ?? path.join(PACKAGE_ROOT, 'config', 'redis.conf'),
      logger: options.logger,
    });
    connection = embedded.connection;
    description = embedded.description;
    release = embedded.release;
  }
  // maxRetriesPerRequest null: during a Redis restart commands wait for the reconnection rather than failing a row.
  const client = new Redis({ ...connection, maxRetriesPerRequest: null });
  client.on('error', (error) => options.logger.debug({ err: error }, 'redis connection error'));
  return {
    connection,
    description,
    client,
    async close() {
      await client.quit().catch(() => client.disconnect());
      await release();
    },
  };
}

function optionsFromUrl(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('REDIS_URL is not a URL', 'Write it like redis://host:6379 or rediss://user:password@host:6380/0.');
  }
  const options: RedisOptions = {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
  };
  if (parsed.username !== '') options.username = decodeURIComponent(parsed.username);
  if (parsed.password !== '') options.password = decodeURIComponent(parsed.password);
  const db = parsed.pathname.replace('/', '');
  if (db !== '') options.db = Number(db);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return options;
}

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable REDIS_URL)';
  }
}
