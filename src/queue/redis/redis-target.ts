import type { ClusterOptions, RedisOptions } from 'ioredis';
import { UsageError } from '../../core/seatflow-error.js';

export interface HostPort {
  host: string;
  port: number;
}

/**
 * Where seatflow's Redis is: one server, a master found through Sentinel, or a Redis Cluster. Parsed once at the edge
 * (REDIS_URL or the config file's `redis.cluster` / `redis.sentinel` section); `open-redis.ts` builds clients from it.
 */
export type RedisTarget =
  | { kind: 'single'; options: RedisOptions; description: string }
  | { kind: 'sentinel'; options: RedisOptions; description: string }
  | { kind: 'cluster'; nodes: HostPort[]; options: ClusterOptions; description: string };

/** The config file's sections (see config.ts): the same as the URL forms, for secrets kept out of a URL. */
export interface RedisSections {
  url?: string | undefined;
  cluster?: { nodes: string[]; username?: string | undefined; password?: string | undefined; tls?: boolean | undefined } | undefined;
  sentinel?:
    | { nodes: string[]; name: string; username?: string | undefined; password?: string | undefined; sentinelPassword?: string | undefined; tls?: boolean | undefined; db?: number | undefined }
    | undefined;
}

const URL_HINT =
  'Write it like redis://host:6379/0, rediss://user:password@host:6380, redis+cluster://host1:6379,host2:6379 or redis+sentinel://host1:26379,host2:26379/mymaster.';

/** The target the configuration names, or undefined when it names none (then seatflow starts its own redis-server). */
export function redisTargetOf(sections: RedisSections): RedisTarget | undefined {
  const named = [sections.url !== undefined && sections.url !== '' ? 'REDIS_URL (redis.url)' : '', sections.cluster ? 'redis.cluster' : '', sections.sentinel ? 'redis.sentinel' : ''].filter((n) => n !== '');
  if (named.length > 1) throw new UsageError(`Redis is named twice: ${named.join(' and ')}`, 'Keep one of them.');
  if (sections.cluster) {
    const { nodes, ...auth } = sections.cluster;
    return clusterTarget(nodes.map((n) => parseHostPort(n, 6379, 'redis.cluster.nodes')), serverOptions(auth));
  }
  if (sections.sentinel) {
    const { nodes, name, sentinelPassword, db, ...auth } = sections.sentinel;
    const sentinels = nodes.map((n) => parseHostPort(n, 26379, 'redis.sentinel.nodes'));
    return sentinelTarget(sentinels, name, { ...serverOptions(auth), ...(db !== undefined ? { db } : {}), ...(sentinelPassword !== undefined ? { sentinelPassword } : {}) });
  }
  if (sections.url !== undefined && sections.url !== '') return parseRedisUrl(sections.url);
  return undefined;
}

/**
 * `redis://` and `rediss://` (one server, optional /db), `redis+cluster://` (seed nodes, comma-separated) and
 * `redis+sentinel://` (sentinels, comma-separated, then /masterName[/db]); `rediss+…` turns TLS on. A user name and
 * password before `@` are the servers'; the sentinels' own password goes in the config file's section.
 */
export function parseRedisUrl(url: string): RedisTarget {
  const match = /^(rediss?)(?:\+(cluster|sentinel))?:\/\/(?:([^@/]*)@)?([^/?#]*)(?:\/([^?#]*))?$/.exec(url.trim());
  if (match === null) throw new UsageError(`REDIS_URL is not a Redis URL: ${describeRedisUrl(url)}`, URL_HINT);
  const [, scheme, topology, credentials, hostList = '', path = ''] = match;
  const tls = scheme === 'rediss';
  const auth = serverOptions({ ...parseCredentials(credentials), tls });
  const defaultPort = topology === 'sentinel' ? 26379 : 6379;
  const hosts = hostList === '' ? [{ host: '127.0.0.1', port: defaultPort }] : hostList.split(',').map((h) => parseHostPort(h, defaultPort, 'REDIS_URL'));
  const segments = path.split('/').filter((s) => s !== '');
  if (topology === 'cluster') {
    if (segments.length > 0) throw new UsageError('a Redis Cluster has no database number: drop the path from REDIS_URL', URL_HINT);
    return clusterTarget(hosts, auth);
  }
  if (topology === 'sentinel') {
    const [name, db] = segments;
    if (name === undefined || segments.length > 2) throw new UsageError('REDIS_URL names no Sentinel master: end it with /masterName (e.g. /mymaster)', URL_HINT);
    return sentinelTarget(hosts, decodeURIComponent(name), { ...auth, ...(db !== undefined ? { db: parseDb(db) } : {}) });
  }
  if (hosts.length > 1) throw new UsageError('REDIS_URL names several hosts: for a cluster write redis+cluster://…, for Sentinel redis+sentinel://…/mymaster', URL_HINT);
  if (segments.length > 1) throw new UsageError('REDIS_URL has more than a database number after the host', URL_HINT);
  const [host] = hosts as [HostPort];
  const options: RedisOptions = { ...host, ...auth, ...(segments[0] !== undefined ? { db: parseDb(segments[0]) } : {}) };
  return { kind: 'single', options, description: describeRedisUrl(url) };
}

/** The URL with its password hidden, for messages and logs. */
export function describeRedisUrl(url: string): string {
  return url.replace(/^([a-z+]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}

function clusterTarget(nodes: HostPort[], auth: RedisOptions): RedisTarget {
  return {
    kind: 'cluster',
    nodes,
    options: { redisOptions: auth, ...(auth.tls !== undefined ? { dnsLookup: (address, callback) => callback(null, address) } : {}) },
    description: `Redis Cluster ${nodes.map((n) => `${n.host}:${n.port}`).join(',')}`,
  };
}

function sentinelTarget(sentinels: HostPort[], name: string, options: RedisOptions): RedisTarget {
  const tls = options.tls !== undefined ? { enableTLSForSentinelMode: true } : {};
  return {
    kind: 'sentinel',
    options: { ...options, ...tls, sentinels, name },
    description: `Redis master "${name}" via Sentinel ${sentinels.map((n) => `${n.host}:${n.port}`).join(',')}`,
  };
}

function serverOptions(auth: { username?: string | undefined; password?: string | undefined; tls?: boolean | undefined }): RedisOptions {
  return {
    ...(auth.username !== undefined && auth.username !== '' ? { username: auth.username } : {}),
    ...(auth.password !== undefined && auth.password !== '' ? { password: auth.password } : {}),
    ...(auth.tls === true ? { tls: {} } : {}),
  };
}

function parseCredentials(text: string | undefined): { username?: string; password?: string } {
  if (text === undefined || text === '') return {};
  const colon = text.indexOf(':');
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new UsageError('REDIS_URL has a badly escaped user name or password', 'Escape special characters with %XX (e.g. @ as %40).');
    }
  };
  return colon < 0 ? { username: decode(text) } : { username: decode(text.slice(0, colon)), password: decode(text.slice(colon + 1)) };
}

function parseHostPort(text: string, defaultPort: number, where: string): HostPort {
  const match = /^\s*(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+)(?::(\d{1,5}))?\s*$/.exec(text);
  const port = match?.[2] === undefined ? defaultPort : Number(match[2]);
  if (match === null || match[1] === undefined || port < 1 || port > 65535) {
    throw new UsageError(`${where}: "${text}" is not host:port`, URL_HINT);
  }
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

function parseDb(text: string): number {
  if (!/^\d{1,2}$/.test(text)) throw new UsageError(`REDIS_URL: database "${text}" is not a number`, URL_HINT);
  return Number(text);
}
