import type { Command } from 'commander';
import { UsageError } from '../core/seatflow-error.js';
import { isDurable, readRedisPersistence } from '../queue/redis/redis-persistence.js';
import type { RedisHandle } from '../queue/redis/open-redis.js';

export interface VolatileRedisFlags {
  allowVolatileRedis?: boolean;
}

export function addVolatileRedisOption(command: Command): Command {
  return command.option('--allow-volatile-redis', 'accept a Redis that keeps nothing on disk (no append-only file, no snapshots): what waits in it is lost at its next restart');
}

/**
 * An offboarding's hold and a schedule wait in Redis for days: on a Redis without the append-only file or snapshots,
 * its next restart loses them without a word. `offboard` and `schedule add` refuse such a Redis unless told.
 */
export async function refuseVolatileRedis(redis: RedisHandle, flags: VolatileRedisFlags, what: string): Promise<void> {
  if (flags.allowVolatileRedis === true) return;
  const persistence = await readRedisPersistence(redis.client);
  if (isDurable(persistence)) return;
  const unknown = persistence.rdb === undefined;
  throw new UsageError(
    `Redis at ${redis.description} keeps nothing on disk (append-only file off, ${unknown ? 'snapshots unknown: it refuses CONFIG GET' : 'snapshots off'}): ${what} would be lost at its next restart`,
    'Turn the append-only file on (appendonly yes in redis.conf, or redis-cli CONFIG SET appendonly yes), or unset REDIS_URL to use the private Redis (AOF on), ' +
      'or use a recipe of deploy/ (Redis with AOF on a volume). Check with: seatflow doctor. ' +
      `${unknown ? 'If the server does take snapshots, or ' : 'Or, '}to accept the loss: --allow-volatile-redis.`,
  );
}
