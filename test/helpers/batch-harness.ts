import { systemClock, type Clock } from '../../src/core/clock.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createJobRegistry } from '../../jobs/registry.js';
import { longestRequestMs } from '../../src/client/longest-request-ms.js';
import type { ClientTimeouts } from '../../src/client/smartsheet-client-options.js';
import { createSmartsheetClient, type SmartsheetClient } from '../../src/client/create-smartsheet-client.js';
import { createSilentLogger } from '../../src/core/logger.js';
import type { BatchPlan } from '../../src/plan/planned-row.js';
import { planManifest } from '../../src/plan/plan-manifest.js';
import type { BatchRecord, BatchStoreHooks } from '../../src/queue/batch-store.js';
import { createBatchSystem, type BatchSystem } from '../../src/queue/batch-system.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import type { ChangeWitness } from '../../src/queue/events-since-attempt.js';
import type { RequestBudget } from '../../src/queue/request-budget.js';
import type { RetryPolicy } from '../../src/queue/retry-policy.js';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import type { WorkerPool } from '../../src/queue/worker-pool.js';
import { startReferenceServer, type RunningReferenceServer, type StartReferenceServerOptions } from '../../src/server/index.js';
import type { Mutation } from '../../src/server/sim/mutation-log.js';
import { deactivatableEmails } from './demo-users.js';
import type { TestRedis } from './redis-server.js';

/** The harness's clients' timeouts: a request without an answer may still land for 10 s. */
export const HARNESS_TIMEOUTS = { headersMs: 5000, bodyMs: 5000 };

export const FAST_RETRY: RetryPolicy = { maxAttempts: 12, maxElapsedMs: 120_000, baseDelayMs: 50, maxDelayMs: 400 };

/**
 * A real reference server, a real Redis (shared by the test file), a fresh queue prefix and data directory, and the
 * real job registry: what `seatflow run` assembles, without the CLI.
 */
export interface BatchHarness {
  server: RunningReferenceServer;
  redisHandle: RedisHandle;
  system: BatchSystem;
  prefix: string;
  dir: string;
  /** A client with the shared budget of the admin token plugged in. */
  api: SmartsheetClient;
  budget: RequestBudget;
  writeManifest(name: string, lines: string[]): string;
  plan(file: string): Promise<BatchPlan>;
  startWorkers(options?: { concurrency?: number; policy?: RetryPolicy; api?: SmartsheetClient; budget?: RequestBudget; requestSettleMs?: number; serviceClock?: Clock; witness?: ChangeWitness; eventWaitMs?: number }): WorkerPool;
  clientFor(token: string, timeouts?: ClientTimeouts): { api: SmartsheetClient; budget: RequestBudget };
  waitForState(batchId: string, states: BatchRecord['state'][], timeoutMs?: number): Promise<BatchRecord>;
  outcomes(batchId: string): Promise<RowOutcome[]>;
  mutations(): Promise<Mutation[]>;
  /** Active users with @acme.example e-mails that a plain deactivate accepts (generated ones). */
  deactivatableEmails(count: number): Promise<string[]>;
  close(): Promise<void>;
}

export interface BatchHarnessOptions {
  /** Observers of recorded outcomes (the audit trail and notifications of src/governance). */
  hooks?: BatchStoreHooks;
  /** A fixed prefix (to build other parts on the same keys before the harness); default a fresh one. */
  prefix?: string;
}

export async function createBatchHarness(redis: TestRedis, serverOptions: StartReferenceServerOptions = {}, rate = { requests: 6000, perSeconds: 60, headroom: 0 }, options: BatchHarnessOptions = {}): Promise<BatchHarness> {
  const server = await startReferenceServer(serverOptions);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-batch-'));
  const prefix = options.prefix ?? redis.prefix();
  const logger = createSilentLogger();
  const redisHandle = await openRedis({ url: redis.url, dataDir: dir, logger });
  const system = createBatchSystem({ redis: redisHandle, prefix, target: server.url, sim: true, logger, ...(options.hooks === undefined ? {} : { hooks: options.hooks }) });
  const clients: SmartsheetClient[] = [];
  const pools: WorkerPool[] = [];
  const clientFor = (token: string, timeouts: ClientTimeouts = HARNESS_TIMEOUTS) => {
    const budget = system.budget({ accessToken: token, rate });
    const api = createSmartsheetClient({
      baseUrl: server.url,
      accessToken: token,
      timeouts,
      beforeRequest: (info) => budget.beforeRequest(info),
      onResponse: (info) => void budget.onResponse(info).catch(() => undefined),
    });
    clients.push(api);
    return { api, budget };
  };
  const admin = clientFor(server.tokens.admin);
  const harness: BatchHarness = {
    server,
    redisHandle,
    system,
    prefix,
    dir,
    api: admin.api,
    budget: admin.budget,
    writeManifest(name, lines) {
      const file = path.join(dir, name);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    },
    async plan(file) {
      const planned = await planManifest({ path: file, api: admin.api, guardrails: { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e6 }, skipInvalid: true });
      return planned.plan;
    },
    startWorkers(options = {}) {
      const pool = system.startWorkers({
        api: options.api ?? admin.api,
        budget: options.budget ?? admin.budget,
        registry: createJobRegistry(),
        concurrency: options.concurrency ?? 8,
        policy: options.policy ?? FAST_RETRY,
        requestSettleMs: options.requestSettleMs ?? longestRequestMs(HARNESS_TIMEOUTS),
        lockDurationMs: 4000,
        stalledIntervalMs: 1000,
        // The service's clock is the reference server's: tests move it, and rows of lifecycle steps are due by it.
        serviceClock: options.serviceClock ?? { now: () => server.context.clock.now(), sleep: systemClock.sleep },
        ...(options.witness === undefined ? {} : { witness: options.witness }),
        ...(options.eventWaitMs === undefined ? {} : { eventWaitMs: options.eventWaitMs }),
      });
      pools.push(pool);
      return pool;
    },
    clientFor,
    async waitForState(batchId, states, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const batch = await system.store.get(batchId);
        if (batch !== undefined && states.includes(batch.state)) return batch;
        if (Date.now() > deadline) throw new Error(`batch ${batchId} is ${batch?.state ?? 'missing'} (${JSON.stringify(batch?.counts)}), not ${states.join('/')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async outcomes(batchId) {
      const all: RowOutcome[] = [];
      for await (const outcome of system.store.outcomes(batchId)) all.push(outcome);
      return all;
    },
    async mutations() {
      const response = await fetch(`${server.origin}/_sim/mutations`, { headers: { authorization: `Bearer ${server.tokens.admin}` } });
      const body = (await response.json()) as { data?: Mutation[] } | Mutation[];
      return Array.isArray(body) ? body : (body.data ?? []);
    },
    async deactivatableEmails(count) {
      return deactivatableEmails(server, count);
    },
    async close() {
      await Promise.all(pools.map((pool) => pool.close(2000)));
      await system.close();
      await redisHandle.close();
      await Promise.all(clients.map((client) => client.close()));
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
