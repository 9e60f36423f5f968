import { Cluster } from 'ioredis';
import type { RedisTarget } from './redis-target.js';

/**
 * Asks a Redis Cluster, over a connection that never retries, whether it serves every slot. Resolves undefined when
 * it does, else why not, so that a wrong or broken cluster is reported at once instead of ioredis retrying forever.
 */
export async function probeCluster(target: Extract<RedisTarget, { kind: 'cluster' }>, timeoutMs = 3000): Promise<string | undefined> {
  const cluster = new Cluster(target.nodes, {
    ...target.options,
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: () => null,
    slotsRefreshTimeout: timeoutMs,
    redisOptions: { ...target.options.redisOptions, connectTimeout: timeoutMs, maxRetriesPerRequest: 0 },
  });
  cluster.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs)));
  const ask = async (): Promise<string | undefined> => {
    await cluster.connect();
    const info = String(await cluster.cluster('INFO'));
    const state = /cluster_state:(\w+)/.exec(info)?.[1];
    return state === 'ok' ? undefined : `the cluster's state is ${state ?? 'unknown'} (not every slot is served)`;
  };
  try {
    return await Promise.race([ask(), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    cluster.disconnect();
  }
}
