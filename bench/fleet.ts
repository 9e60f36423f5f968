// Fleet: rows per second end to end with the reference server unthrottled, on one Redis and on a Redis Cluster
// (3 masters + 3 replicas on this machine), with 1 and 3 worker processes; and Redis commands per row, counted two ways:
// sent by seatflow's processes (≈ round trips; a pipeline of two is counted as two) and executed by Redis (INFO
// commandstats summed over the masters, which counts the commands inside Lua scripts too).
// Run: bin/seatflow-dev bench/fleet.ts [ROWS=3000] [CONCURRENCY_PER_WORKER=16]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../src/core/logger.js';
import { planManifest } from '../src/plan/plan-manifest.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { startReferenceServer } from '../src/server/index.js';
import { startTestRedisCluster } from '../test/helpers/redis-cluster.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

const ROWS = Number(process.argv[2] ?? 3000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const RATE = { requests: 1_000_000, perSeconds: 1, headroom: 0 };

let sentHere = 0;
const send = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function countedSend(this: Redis, ...args: Parameters<Redis['sendCommand']>) {
  sentHere += 1;
  return send.apply(this, args);
};

interface Topology {
  name: string;
  url: string;
  /** Ports of the masters, for INFO commandstats. */
  masters(): Promise<number[]>;
  stop(): Promise<void>;
}

async function single(): Promise<Topology> {
  const redis = await startTestRedis();
  return { name: 'one Redis', url: redis.url, masters: async () => [redis.port], stop: () => redis.stop() };
}

async function cluster(): Promise<Topology> {
  const c = await startTestRedisCluster(3, 2000);
  return {
    name: 'Redis Cluster 3+3',
    url: c.url,
    async masters() {
      const roles = await Promise.all(
        c.nodes.map(async (n) => {
          const client = c.nodeClient(n.port);
          try {
            return /role:master/.test(await client.info('replication')) ? n.port : undefined;
          } finally {
            client.disconnect();
          }
        }),
      );
      return roles.filter((p): p is number => p !== undefined);
    },
    stop: () => c.stop(),
  };
}

async function commandStats(ports: number[], reset = false): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const port of ports) {
    const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
    try {
      if (reset) await client.config('RESETSTAT');
      for (const line of (await client.info('commandstats')).split('\n')) {
        const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
        if (match) totals.set(match[1]!, (totals.get(match[1]!) ?? 0) + Number(match[2]));
      }
    } finally {
      client.disconnect();
    }
  }
  return totals;
}

async function run(topology: Topology, workers: number): Promise<string> {
  const server = await startReferenceServer({ users: Math.ceil(ROWS * 1.4) + 1000, rateLimit: 'off' });
  const emails: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (emails.length === ROWS) break;
    if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /\.\d+@acme\.example$/.test(user.email)) emails.push(user.email);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-fleet-bench-'));
  const manifest = path.join(dir, 'deactivate.csv');
  writeFileSync(manifest, `email,action\n${emails.map((e) => `${e},deactivate`).join('\n')}\n`);
  const logger = createSilentLogger();
  const prefix = `bench${Math.random().toString(36).slice(2, 8)}`;
  const handle = await openRedis({ url: topology.url, dataDir: dir, logger });
  const system = createBatchSystem({ redis: handle, prefix, target: server.url, sim: true, logger });
  const budget = system.budget({ accessToken: server.tokens.admin, rate: RATE });
  const api = createSmartsheetClient({ baseUrl: server.url, accessToken: server.tokens.admin, beforeRequest: (info) => budget.beforeRequest(info) });
  const children: ChildProcess[] = [];
  const sentByWorkers: number[] = [];
  try {
    for (let i = 0; i < workers; i += 1) {
      const child = spawn(
        process.execPath,
        ['bin/seatflow-dev', 'bench/quota-worker.ts', topology.url, prefix, server.url, server.tokens.admin, String(RATE.requests), String(RATE.perSeconds), String(RATE.headroom), String(CONCURRENCY), 'auto', '--count-commands'],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      await new Promise<void>((resolve) =>
        lines.on('line', (line) => {
          if (line === 'ready') resolve();
          else if (line.includes('commandsSent')) sentByWorkers.push((JSON.parse(line) as { commandsSent: number }).commandsSent);
        }),
      );
    }
    const { plan } = await planManifest({ path: manifest, api, guardrails: { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 } });
    // Counted from here: submit and execution (the pre-flight's budget calls are the client's, not the queue's).
    const masters = await topology.masters();
    await commandStats(masters, true);
    sentHere = 0;
    const started = Date.now();
    const { batch } = await system.submit(plan);
    for (;;) {
      const current = await system.store.get(batch.id);
      if (current?.state === 'finished') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (Date.now() - started) / 1000;
    const sentByBench = sentHere;
    const stats = await commandStats(masters);
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => once(child, 'exit')));
    const executed = [...stats.entries()].filter(([name]) => name !== 'info' && name !== 'config|resetstat');
    const executedTotal = executed.reduce((sum, [, n]) => sum + n, 0);
    const sent = sentByWorkers.reduce((a, b) => a + b, 0) + sentByBench;
    const top = executed.sort((a, b) => b[1] - a[1]).slice(0, 10).map(([name, n]) => `${name} ${(n / ROWS).toFixed(1)}`).join(', ');
    return [
      `${topology.name}, ${workers} worker process${workers === 1 ? '' : 'es'} × ${CONCURRENCY}: ${ROWS} rows in ${seconds.toFixed(1)} s = ${(ROWS / seconds).toFixed(0)} rows/s`,
      `    commands sent per row ${(sent / ROWS).toFixed(1)} (workers' whole life incl. idle polling, + submit; status polling by the bench ${(sentByBench / ROWS).toFixed(2)});`,
      `    executed per row ${(executedTotal / ROWS).toFixed(1)} (incl. inside scripts): ${top}`,
    ].join('\n');
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await system.close();
    await handle.close();
    await api.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`fleet: ${ROWS} deactivate rows, reference server unthrottled, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const start of [single, cluster]) {
  const topology = await start();
  try {
    for (const workers of [1, 3]) console.log(await run(topology, workers));
  } finally {
    await topology.stop();
  }
}
console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
process.exit(0);
