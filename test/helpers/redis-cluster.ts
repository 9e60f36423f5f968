import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, waitForPing } from './redis-server.js';

const run = promisify(execFile);

/** One redis-server process of a test topology. */
export interface RedisNode {
  port: number;
  process: ChildProcess;
  /** SIGKILL, as a crashed machine. */
  kill(): Promise<void>;
}

/** A Redis Cluster of `masters` masters with one replica each, on loopback, for one test file. */
export interface TestRedisCluster {
  url: string;
  nodes: RedisNode[];
  dir: string;
  /** A connection to one node (not cluster-aware), for CLUSTER and INFO commands. */
  nodeClient(port: number): Redis;
  /** The master currently serving a key's slot. */
  masterOf(key: string): Promise<RedisNode>;
  /** Waits until every slot is served and every running master's replicas are in sync. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A master, its replica and three sentinels watching it (quorum 2), on loopback. */
export interface TestRedisSentinel {
  url: string;
  masterName: string;
  master: RedisNode;
  replica: RedisNode;
  sentinels: RedisNode[];
  dir: string;
  nodeClient(port: number): Redis;
  /** The port of the current master, as the first sentinel sees it. */
  currentMasterPort(): Promise<number>;
  /** The master's port as each sentinel names it (they may disagree for a moment after a failover). */
  masterPortsNamed(): Promise<number[]>;
  stop(): Promise<void>;
}

const REDIS_ARGS = ['--bind', '127.0.0.1', '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction'];

export async function startTestRedisCluster(masters = 3, nodeTimeoutMs = 1500): Promise<TestRedisCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-cluster-'));
  const nodes: RedisNode[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * 2; i += 1) {
      const port = await freePort();
      const nodeDir = path.join(dir, String(port));
      mkdirSync(nodeDir);
      nodes.push(startNode(port, [...REDIS_ARGS, '--port', String(port), '--dir', nodeDir, '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs)]));
    }
    await Promise.all(nodes.map((n) => waitForPing(n.port)));
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 60_000 });
    const cluster: TestRedisCluster = {
      url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
      nodes,
      dir,
      nodeClient: (port) => new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => null }),
      async masterOf(key) {
        const alive = nodes.find((n) => n.process.exitCode === null && n.process.signalCode === null);
        if (alive === undefined) throw new Error('no node is running');
        const client = cluster.nodeClient(alive.port);
        try {
          const slot = Number(await client.cluster('KEYSLOT', key));
          const ranges = (await client.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
          const range = ranges.find(([from, to]) => slot >= from && slot <= to);
          const node = nodes.find((n) => n.port === range?.[2][1]);
          if (node === undefined) throw new Error(`no master serves slot ${slot}`);
          return node;
        } finally {
          client.disconnect();
        }
      },
      async waitHealthy(timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const states = await Promise.all(
            nodes
              .filter((n) => n.process.exitCode === null && n.process.signalCode === null)
              .map(async (n) => {
                const client = cluster.nodeClient(n.port);
                client.on('error', () => undefined);
                try {
                  return /cluster_state:ok/.test(String(await client.cluster('INFO'))) && replicasInSync(await client.info('replication'));
                } catch {
                  return false;
                } finally {
                  client.disconnect();
                }
              }),
          );
          if (states.every(Boolean)) return;
          if (Date.now() > deadline) throw new Error('the cluster did not become healthy in time');
          await sleep(200);
        }
      },
      stop,
    };
    await cluster.waitHealthy();
    return cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Server settings a Sentinel set-up runs with, beyond the defaults. */
export interface SentinelServerOptions {
  /**
   * `min-replicas-to-write 1` (and a lag of `maxLagSeconds`, default 10): a master without its replica in sync refuses
   * writes (NOREPLICAS), so a failover cannot drop what it acknowledged, the set-up docs/operations.md recommends.
   */
  minReplicasToWrite?: { maxLagSeconds?: number };
}

export async function startTestRedisSentinel(downAfterMs = 1000, options: SentinelServerOptions = {}): Promise<TestRedisSentinel> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-sentinel-'));
  const masterName = 'seatflow-test';
  const all: RedisNode[] = [];
  const stop = async () => {
    await Promise.all(all.map((n) => n.kill()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const serverNode = async (replicaOf?: number): Promise<RedisNode> => {
      const port = await freePort();
      const nodeDir = path.join(dir, String(port));
      mkdirSync(nodeDir);
      const minReplicas = options.minReplicasToWrite === undefined ? [] : ['--min-replicas-to-write', '1', '--min-replicas-max-lag', String(options.minReplicasToWrite.maxLagSeconds ?? 10)];
      const node = startNode(port, [...REDIS_ARGS, ...minReplicas, '--port', String(port), '--dir', nodeDir, ...(replicaOf !== undefined ? ['--replicaof', '127.0.0.1', String(replicaOf)] : [])]);
      all.push(node);
      await waitForPing(port);
      return node;
    };
    const master = await serverNode();
    const replica = await serverNode(master.port);
    const sentinels: RedisNode[] = [];
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      const file = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        file,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${masterName} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${masterName} ${downAfterMs}`,
          `sentinel failover-timeout ${masterName} 10000`,
          `sentinel parallel-syncs ${masterName} 1`,
          '',
        ].join('\n'),
      );
      const node = startNode(port, [file, '--sentinel']);
      all.push(node);
      sentinels.push(node);
      await waitForPing(port);
    }
    const masterPortNamedBy = async (node: RedisNode): Promise<number> => {
      const client = new Redis({ port: node.port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => null });
      try {
        const [, port] = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', masterName)) as [string, string];
        return Number(port);
      } finally {
        client.disconnect();
      }
    };
    const sentinel: TestRedisSentinel = {
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${masterName}`,
      masterName,
      master,
      replica,
      sentinels,
      dir,
      nodeClient: (port) => new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => null }),
      currentMasterPort: () => masterPortNamedBy(sentinels[0]!),
      masterPortsNamed: () => Promise.all(sentinels.map(masterPortNamedBy)),
      stop,
    };
    // Every sentinel must know the replica (and each other) before a failover can elect it. Sentinels meet through
    // hello messages every 2 s; on a loaded machine the replica's first sync can take longer than that.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const states = await Promise.all(
        sentinels.map(async (s) => {
          const client = sentinel.nodeClient(s.port);
          try {
            const replicas = (await client.call('SENTINEL', 'REPLICAS', masterName)) as unknown[];
            const others = (await client.call('SENTINEL', 'SENTINELS', masterName)) as unknown[];
            const masterClient = sentinel.nodeClient(master.port);
            const synced = await masterClient.info('replication').finally(() => masterClient.disconnect());
            const ready = replicas.length >= 1 && others.length >= 2 && /connected_slaves:1/.test(synced) && replicasInSync(synced);
            return { ready, seen: `sentinel ${s.port}: ${replicas.length} replica(s), ${others.length} other sentinel(s), master ${/connected_slaves:1/.test(synced) ? 'has its replica' : 'has no replica'}${replicasInSync(synced) ? ' in sync' : ''}` };
          } catch (error) {
            return { ready: false, seen: `sentinel ${s.port}: ${error instanceof Error ? error.message : String(error)}` };
          } finally {
            client.disconnect();
          }
        }),
      );
      if (states.every((state) => state.ready)) break;
      if (Date.now() > deadline) throw new Error(`the sentinels did not find the replica and each other in time: ${states.map((state) => state.seen).join('; ')}`);
      await sleep(200);
    }
    return sentinel;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A master's replicas have finished their first sync (`wait_bgsave` until then: a failover would lose data). */
function replicasInSync(replication: string): boolean {
  return [...replication.matchAll(/^slave\d+:.*state=(\w+)/gm)].every((m) => m[1] === 'online');
}

function startNode(port: number, args: string[]): RedisNode {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  return {
    port,
    process: child,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
