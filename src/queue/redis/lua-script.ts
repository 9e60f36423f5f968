import type { ChainableCommander, Cluster, Redis } from 'ioredis';

/** A connection to one Redis (direct or found through Sentinel) or to a Redis Cluster: both take the same commands. */
export type RedisClient = Redis | Cluster;

type ScriptArg = string | number;
type ScriptCall = (numberOfKeys: number, ...keysAndArgs: ScriptArg[]) => Promise<unknown>;
type QueuedScriptCall = (numberOfKeys: number, ...keysAndArgs: ScriptArg[]) => ChainableCommander;

export interface LuaScript {
  /** Runs the script; its keys must share one hash slot (one batch's, or one token's: see queue-keys.ts). */
  run(redis: RedisClient, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown>;
  /** Adds the script to a pipeline of `redis` made after `prepare(redis)`, to share its round trip. */
  queue(pipeline: ChainableCommander, keys: readonly string[], args: readonly ScriptArg[]): ChainableCommander;
  /** Registers the script on a connection (once); `run` does it on first use. */
  prepare(redis: RedisClient): void;
}

/**
 * A Lua script registered once per connection with ioredis `defineCommand`: calls go as EVALSHA (the digest, not the
 * text), and ioredis sends the text again by itself when a server answers NOSCRIPT (after a restart or a failover to
 * a replica whose script cache is empty).
 */
export function luaScript(name: string, lua: string): LuaScript {
  const command = `seatflow${name}`;
  const prepare = (redis: RedisClient): void => {
    if (typeof (redis as unknown as Record<string, unknown>)[command] !== 'function') redis.defineCommand(command, { lua });
  };
  return {
    prepare,
    async run(redis, keys, args) {
      prepare(redis);
      const call = (redis as unknown as Record<string, ScriptCall>)[command] as ScriptCall;
      return call.call(redis, keys.length, ...keys, ...args);
    },
    queue(pipeline, keys, args) {
      const call = (pipeline as unknown as Record<string, QueuedScriptCall | undefined>)[command];
      if (call === undefined) throw new Error(`script ${name} was not prepared on this connection before its pipeline was made`);
      return call.call(pipeline, keys.length, ...keys, ...args);
    },
  };
}
