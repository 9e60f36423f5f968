import { Cluster, type Redis } from 'ioredis';
import type { RedisClient } from './lua-script.js';

/** What a Redis keeps across a restart, as it says itself. */
export interface RedisPersistence {
  version: string | undefined;
  /** The append-only file is on (INFO persistence `aof_enabled`). */
  aof: boolean;
  /** RDB snapshots are configured (CONFIG GET save); undefined when the server refuses CONFIG (managed services). */
  rdb: boolean | undefined;
  /** BullMQ needs `noeviction`: any other policy may evict a job or an outcome. */
  maxmemoryPolicy: string | undefined;
  /**
   * `min-replicas-to-write` (the least over the masters): 0, a master takes writes without a replica in sync, which a
   * failover then drops; undefined when the server refuses CONFIG.
   */
  minReplicasToWrite: number | undefined;
}

/**
 * Reads a Redis's persistence (one server, a Sentinel master, or every master of a cluster, where the weakest counts:
 * a cluster keeps a hold only if the master of its slot does).
 */
export async function readRedisPersistence(client: RedisClient): Promise<RedisPersistence> {
  const servers: Redis[] = client instanceof Cluster ? client.nodes('master') : [client as Redis];
  const each = await Promise.all(servers.map(readOne));
  const [first] = each;
  if (first === undefined) return { version: undefined, aof: false, rdb: undefined, maxmemoryPolicy: undefined, minReplicasToWrite: undefined };
  return {
    version: first.version,
    aof: each.every((one) => one.aof),
    rdb: each.some((one) => one.rdb === false) ? false : each.every((one) => one.rdb === true) ? true : undefined,
    maxmemoryPolicy: each.find((one) => one.maxmemoryPolicy !== 'noeviction')?.maxmemoryPolicy ?? first.maxmemoryPolicy,
    minReplicasToWrite: each.some((one) => one.minReplicasToWrite === undefined) ? undefined : Math.min(...each.map((one) => one.minReplicasToWrite ?? 0)),
  };
}

/** True when a restart of this Redis keeps what was written (AOF, or RDB snapshots). */
export function isDurable(persistence: RedisPersistence): boolean {
  return persistence.aof || persistence.rdb === true;
}

async function readOne(server: Redis): Promise<RedisPersistence> {
  const info = parseInfo(await server.info());
  const save = await configOf(server, 'save');
  const minReplicas = await configOf(server, 'min-replicas-to-write');
  return {
    version: info.get('redis_version'),
    aof: info.get('aof_enabled') === '1',
    rdb: save === undefined ? undefined : save.trim() !== '',
    maxmemoryPolicy: info.get('maxmemory_policy'),
    minReplicasToWrite: minReplicas === undefined ? undefined : Number(minReplicas),
  };
}

/** A setting of the server, or undefined when it refuses CONFIG (managed services rename or forbid it). */
async function configOf(server: Redis, name: string): Promise<string | undefined> {
  try {
    const [, value] = (await server.config('GET', name)) as [string, string | undefined];
    return value;
  } catch {
    return undefined;
  }
}

function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}
