// What bench/overhead.ts and bench/quota-use.ts both stand on: a test Redis, a reference server, a deactivate manifest
// of users the server accepts, the batch system over that Redis, and worker processes (bench/quota-worker.ts) that
// share the admin token's budget with the bench's own client.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSmartsheetClient } from '../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../src/core/logger.js';
import { planManifest } from '../src/plan/plan-manifest.js';
import { createBatchSystem } from '../src/queue/batch-system.js';
import { openRedis } from '../src/queue/redis/open-redis.js';
import { startReferenceServer, type StartReferenceServerOptions } from '../src/server/index.js';
import { startTestRedis } from '../test/helpers/redis-server.js';

export interface BatchBenchOptions {
  /** Rows of the deactivate manifest. */
  rows: number;
  /** Users the reference server seeds (enough that `rows` of them can be deactivated). */
  users: number;
  rateLimit: StartReferenceServerOptions['rateLimit'];
  /** The admin token's budget, for the bench's client and every worker process. */
  rate: { requests: number; perSeconds: number; headroom: number; burst?: number | 'auto' };
  /** Names the temporary directory, `sf-<name>-…`. */
  name: string;
}

export async function openBatchBench(options: BatchBenchOptions) {
  const redis = await startTestRedis();
  const server = await startReferenceServer({ users: options.users, rateLimit: options.rateLimit });
  const token = server.tokens.admin;
  const emails: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (emails.length === options.rows) break;
    if (user.status === 'ACTIVE' && user.inOrg && !user.externallyManaged && !user.admin && /\.\d+@acme\.example$/.test(user.email)) emails.push(user.email);
  }
  if (emails.length < options.rows) throw new Error(`only ${emails.length} deactivatable users`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `sf-${options.name}-`));
  const manifest = path.join(dir, 'deactivate.csv');
  writeFileSync(manifest, `email,action\n${emails.map((e) => `${e},deactivate`).join('\n')}\n`);

  const logger = createSilentLogger();
  const prefix = redis.prefix();
  const handle = await openRedis({ url: redis.url, dataDir: dir, logger });
  const system = createBatchSystem({ redis: handle, prefix, target: server.url, sim: true, logger });
  const { rate } = options;
  const budget = system.budget({ accessToken: token, rate });
  const api = createSmartsheetClient({
    baseUrl: server.url,
    accessToken: token,
    beforeRequest: (info) => budget.beforeRequest(info),
    onResponse: (info) => void budget.onResponse(info).catch(() => undefined),
  });

  return {
    server,
    token,
    emails,
    manifest,
    redisUrl: redis.url,
    prefix,
    dir,
    system,
    budget,
    /** The pre-flight of the manifest, with no guardrail in the way. */
    plan: () => planManifest({ path: manifest, api, guardrails: { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 } }),
    /** A worker process; it prints `ready` on stdout once it takes rows. */
    spawnWorker(concurrency: number, ...flags: string[]): ChildProcess {
      const args = [redis.url, prefix, server.url, token, String(rate.requests), String(rate.perSeconds), String(rate.headroom), String(concurrency), String(rate.burst ?? 'auto'), ...flags];
      return spawn(process.execPath, ['bin/seatflow-dev', 'bench/quota-worker.ts', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    },
    async close() {
      await system.close();
      await handle.close();
      await api.close();
      await server.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
