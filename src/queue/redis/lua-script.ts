import { createHash } from 'node:crypto';
import type { ChainableCommander, Cluster, Redis } from 'ioredis';

/** A connection to one Redis (direct or found through Sentinel) or to a Redis Cluster: both take the same commands. */
export type RedisClient = Redis | Cluster;

type ScriptArg = string | number;
type ScriptCall = (numberOfKeys: number, ...keysAndArgs: ScriptArg[]) => Promise<unknown>;
type QueuedScriptCall = (numberOfKeys: number, ...keysAndArgs: ScriptArg[]) => ChainableCommander;

/** How many replicas must hold a write before seatflow acts on it, and how long to wait for them. */
export interface ReplicaAcks {
  count: number;
  timeoutMs: number;
}

export interface LuaScript {
  /** Runs the script; its keys must share one hash slot (one batch's, or one token's: see queue-keys.ts). */
  run(redis: RedisClient, keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown>;
  /**
   * Runs the script and, in the same round trip, waits (WAIT) until `replicas.count` replicas have its writes, or
   * `replicas.timeoutMs` passed: for a write that must survive a failover (the in-flight marker, set before a call to
   * the service). Replication is asynchronous, so without this a master that dies just after answering could lose it.
   * Resolves the script's result and how many replicas acknowledged.
   */
  runReplicated(redis: RedisClient, keys: readonly string[], args: readonly ScriptArg[], replicas: ReplicaAcks): Promise<{ result: unknown; acknowledged: number }>;
  /** Adds the script to a pipeline of `redis` made after `prepare(redis)`, to share its round trip. */
  queue(pipeline: ChainableCommander, keys: readonly string[], args: readonly ScriptArg[]): ChainableCommander;
  /** Registers the script on a connection (once); `run` does it on first use. */
  prepare(redis: RedisClient): void;
}

const textsByName = new Map<string, string>();

/**
 * A Lua script registered once per connection with ioredis `defineCommand`: calls go as EVALSHA (the digest, not the
 * text), and ioredis sends the text again by itself when a server answers NOSCRIPT (after a restart or a failover to
 * a replica whose script cache is empty).
 */
export function luaScript(name: string, lua: string): LuaScript {
  const command = `seatflow${name}`;
  // A connection keeps the first script defined under a name: a second text under it would silently run the first.
  const known = textsByName.get(name);
  if (known !== undefined && known !== lua) throw new Error(`two Lua scripts are named ${name}: give each its own name`);
  textsByName.set(name, lua);
  const prepare = (redis: RedisClient): void => {
    if (typeof (redis as unknown as Record<string, unknown>)[command] !== 'function') redis.defineCommand(command, { lua });
  };
  const run: LuaScript['run'] = async (redis, keys, args) => {
    prepare(redis);
    const call = (redis as unknown as Record<string, ScriptCall>)[command] as ScriptCall;
    return call.call(redis, keys.length, ...keys, ...args);
  };
  const queue: LuaScript['queue'] = (pipeline, keys, args) => {
    const call = (pipeline as unknown as Record<string, QueuedScriptCall | undefined>)[command];
    if (call === undefined) throw new Error(`script ${name} was not prepared on this connection before its pipeline was made`);
    return call.call(pipeline, keys.length, ...keys, ...args);
  };
  return {
    prepare,
    run,
    queue,
    async runReplicated(redis, keys, args, replicas) {
      if (replicas.count <= 0) return { result: await run(redis, keys, args), acknowledged: 0 };
      prepare(redis);
      // On a cluster the pipeline goes to the node of the script's keys, so WAIT (which names no key) asks that node.
      const replies = await queue(redis.pipeline(), keys, args).wait(replicas.count, replicas.timeoutMs).exec();
      const [scriptReply, waitReply] = replies ?? [];
      if (scriptReply?.[0]) throw scriptReply[0];
      return { result: scriptReply?.[1], acknowledged: waitReply?.[0] ? 0 : Number(waitReply?.[1] ?? 0) };
    },
  };
}

const scriptsByText = new Map<string, LuaScript>();

/** The registered script of a Lua text (one per text, named by its digest), for code that keeps its scripts as strings. */
export function scriptOf(lua: string): LuaScript {
  let script = scriptsByText.get(lua);
  if (script === undefined) {
    script = luaScript(`Sha${createHash('sha1').update(lua).digest('hex').slice(0, 16)}`, lua);
    scriptsByText.set(lua, script);
  }
  return script;
}
