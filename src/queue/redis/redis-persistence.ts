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
}

/**
 * Reads a Redis's persistence (one server, a Sentinel master, or every master of a cluster, where the weakest counts:
 * a cluster keeps a hold only if the master of its slot does).
 */
export async function readRedisPersistence(client: RedisClient): Promise<RedisPersistence> {
  const servers: Redis[] = client instanceof Cluster ? client.nodes('master') : [client as Redis];
  const each = await Promise.all(servers.map(readOne));
  const [first] = each;
  if (first === undefined) return { version: undefined, aof: false, rdb: undefined, maxmemoryPolicy: undefined };
  return {
    version: first.version,
    aof: each.every((one) => one.aof),
    rdb: each.some((one) => one.rdb === false) ? false : each.every((one) => one.rdb === true) ? true : undefined,
    maxmemoryPolicy: each.find((one) => one.maxmemoryPolicy !== 'noeviction')?.maxmemoryPolicy ?? first.maxmemoryPolicy,
  };
}

/** True when a restart of this Redis keeps what was written (AOF, or RDB snapshots). */
export function isDurable(persistence: RedisPersistence): boolean {
  return persistence.aof || persistence.rdb === true;
}

async function readOne(server: Redis): Promise<RedisPersistence> {
  const info = parseInfo(await server.info());
  let rdb: boolean | undefined;
  try {
    const [, save] = (await server.config('GET', 'save')) as [string, string];
    rdb = save.trim() !== '';
  } catch {
    rdb = undefined;
  }
  return { version: info.get('redis_version'), aof: info.get('aof_enabled') === '1', rdb, maxmemoryPolicy: info.get('maxmemory_policy') };
}

function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields.set(line.slice(0, at), line.slice(at + 1).trim());
  }
  return fields;
}
