import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestRedis, type TestRedis } from './redis-server.js';

export interface MasterAndReplica {
  readonly master: TestRedis;
  /** A second server, made the master's replica by a test (`replicaClient.replicaof(...)`) and detached after it. */
  readonly replica: TestRedis;
  /** A client of the master. */
  readonly client: Redis;
  readonly replicaClient: Redis;
}

/**
 * Two test redis-servers for the file, a master and one that tests attach as its replica, each with a client: for
 * writes that must reach a replica (WAIT). After each test the replica is detached again.
 */
export function useMasterAndReplica(): MasterAndReplica {
  let servers: { master: TestRedis; replica: TestRedis; client: Redis; replicaClient: Redis } | undefined;
  beforeAll(async () => {
    const [master, replica] = await Promise.all([startTestRedis({ volatile: true }), startTestRedis({ volatile: true })]);
    servers = { master, replica, client: new Redis(master.url), replicaClient: new Redis(replica.url) };
    // A replica that attaches syncs at once (the default waits 5 s for more replicas to share the sync).
    await servers.client.config('SET', 'repl-diskless-sync-delay', '0');
  });
  afterEach(async () => {
    await servers?.replicaClient.replicaof('NO', 'ONE');
  });
  afterAll(async () => {
    servers?.client.disconnect();
    servers?.replicaClient.disconnect();
    await Promise.all([servers?.master.stop(), servers?.replica.stop()]);
  });
  const started = () => {
    if (servers === undefined) throw new Error('the test master and replica are not started yet');
    return servers;
  };
  return {
    get master() {
      return started().master;
    },
    get replica() {
      return started().replica;
    },
    get client() {
      return started().client;
    },
    get replicaClient() {
      return started().replicaClient;
    },
  };
}
