import type { RedisTarget } from './redis-target.js';
import { probeRedisAnswer, type ProbeQuestion } from './probe-redis.js';
import { CONNECTION_LOST } from './connection-lost.js';

/** ioredis-free words for "no seed answered at all" (open-redis.ts gives up at once on them: nothing is failing over). */
export const NO_CLUSTER_NODE_ANSWERED = 'no node of the cluster answered';

const clusterState: ProbeQuestion = async (client) => {
  const info = String(await client.cluster('INFO'));
  const state = /cluster_state:(\w+)/.exec(info)?.[1];
  return state === 'ok' ? undefined : `the cluster's state is ${state ?? 'unknown'} (not every slot is served)`;
};

/**
 * Asks the seed nodes of a Redis Cluster, one plain connection each and in turn, whether the cluster serves every slot:
 * the first node that answers says. Resolves undefined when it does, else why not. Plain connections, not a Cluster
 * client: a Cluster client's start can wait on a dead node of its slot map (a master just killed) past any bound.
 */
export async function probeCluster(target: Extract<RedisTarget, { kind: 'cluster' }>, timeoutMs = 3000): Promise<string | undefined> {
  const problems: string[] = [];
  for (const node of target.nodes) {
    const problem = await probeRedisAnswer({ ...target.options.redisOptions, host: node.host, port: node.port }, timeoutMs, clusterState);
    if (problem === undefined) return undefined;
    // A node that answered with a wrong state speaks for the cluster; one that did not answer says nothing.
    if (!isConnectionProblem(problem.message)) return problem.message;
    problems.push(`${node.host}:${node.port}: ${problem.message}`);
  }
  return `${NO_CLUSTER_NODE_ANSWERED} (${problems.join('; ')})`;
}

function isConnectionProblem(message: string): boolean {
  return CONNECTION_LOST.test(message);
}
