import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { expect } from 'vitest';
import { createSilentLogger } from '../../src/core/logger.js';
import { createBatchStore, type BatchRecord } from '../../src/queue/batch-store.js';
import { createQueueKeys, rowsQueueName, scheduleQueueNameOf, tokenKey } from '../../src/queue/queue-keys.js';
import { openRedis, type RedisHandle } from '../../src/queue/redis/open-redis.js';
import type { RowOutcome } from '../../src/queue/row-outcome.js';
import { rowJobId } from '../../src/queue/row-job.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/server/index.js';
import type { Mutation } from '../../src/server/sim/mutation-log.js';
import { stepQueueNameOf } from '../../src/workflow/step-job.js';
import { deactivatableEmails } from '../helpers/demo-users.js';
import { ROOT } from '../helpers/run-seatflow.js';

/** What a fleet test gives the scenario: its Redis topology, how to fail it over, and where its keys live. */
export interface FleetTopology {
  /** REDIS_URL for every seatflow process. */
  url: string;
  /** Kills or fails over the Redis server that matters most mid-batch; resolves when it was done (not healed). */
  failover(keys: { queueKey: string; batchKey: string }): Promise<string>;
  /** Every key under `pattern` on every reachable node, each with the hash slot that node says it is in. */
  scanKeys(pattern: string): Promise<{ key: string; slot: number }[]>;
  /**
   * Called once the batch reads finished and the workers are gone, before the final state is read: e.g. waits until a
   * failed-over master has been demoted (and has dropped whatever was written to it meanwhile).
   */
  settle?(): Promise<void>;
  /** The slot of a key (CLUSTER KEYSLOT), or undefined for a topology without slots. */
  slotOf(key: string): Promise<number | undefined>;
}

export interface FleetResult {
  batch: BatchRecord;
  outcomes: RowOutcome[];
  mutations: Mutation[];
  refused429: number;
  /** When each 429 was refused, relative to the failover and the worker kill: a failing run says which one caused it. */
  refusedAt: string[];
  failedOver: string;
  /** Rows done when the failover and the worker's kill came: both must land mid-batch. */
  doneAtFailover: number;
  doneAtKill: number;
  watchOutput: string;
}

const ROWS = 60;
/**
 * The service's limit in the test: 10 calls a second per token with a bucket of 12, so the 60 rows take about 5 s and
 * the failover (after 15 rows) and the kill (after 30) land mid-batch even on a loaded machine (a bucket of 60 let
 * the fleet finish in half a second, before a slow poll saw 15).
 */
const LIMIT = { requests: 60, perSeconds: 6, bucket: 12 };

/**
 * The fleet as several machines would run it: a reference server with a rate limit, `submit` from one process,
 * three `worker` processes, `status --watch` from a fourth. Mid-batch, the topology fails over (after 15 rows) and one
 * worker is SIGKILLed (after 30). Returns what the checks need; every process and directory is gone when it resolves
 * or throws.
 */
export async function runFleetScenario(topology: FleetTopology): Promise<FleetResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-fleet-'));
  const children: ChildProcess[] = [];
  let server: RunningReferenceServer | undefined;
  let redis: RedisHandle | undefined;
  try {
    // Every call takes 100 ms, so killed workers and a failover meet rows mid-call.
    server = await startReferenceServer({ rateLimit: LIMIT, faults: 'delay:100ms:1' });
    let refused429 = 0;
    const refusedAtMs: number[] = [];
    const take = server.rateLimiter.take.bind(server.rateLimiter);
    server.rateLimiter.take = (token, cost) => {
      const decision = take(token, cost);
      if (!decision.allowed) {
        refused429 += 1;
        refusedAtMs.push(Date.now());
      }
      return decision;
    };
    const emails = deactivatableEmails(server, ROWS);
    const manifest = path.join(dir, 'leavers.csv');
    writeFileSync(manifest, ['email,action', ...emails.map((e) => `${e},deactivate`)].join('\n') + '\n');
    const config = path.join(dir, 'fleet.json');
    writeFileSync(
      config,
      JSON.stringify({
        worker: { concurrency: 4, lockDurationMs: 4000, stalledIntervalMs: 1000, shutdownGraceMs: 2000, lostRowCheckMs: 2000 },
        retry: { maxAttempts: 20, maxElapsedMs: 120_000, baseDelayMs: 100, maxDelayMs: 1000 },
        rateLimit: { requests: LIMIT.requests, perSeconds: LIMIT.perSeconds, burst: LIMIT.bucket, headroom: 0.1 },
      }),
    );
    const prefix = `fleet${randomUUID().slice(0, 8)}`;
    const env = {
      ...process.env,
      REDIS_URL: topology.url,
      SEATFLOW_QUEUE_PREFIX: prefix,
      SEATFLOW_DATA_DIR: path.join(dir, 'data'),
      SMARTSHEET_API_BASE: server.url,
      SMARTSHEET_ACCESS_TOKEN: server.tokens.admin,
      SEATFLOW_LOG_LEVEL: 'warn',
    };
    // The workers' warnings about the budget and Redis replicas, when they came: what a failing no-429 check prints.
    const budgetWarnings: string[] = [];
    const seatflow = (args: string[]): ChildProcess => {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), ...args, '--config', config], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      if (args[0] === 'worker') {
        for (const stream of [child.stdout, child.stderr]) {
          stream?.on('data', (chunk: Buffer) => {
            for (const line of chunk.toString('utf8').split('\n')) {
              if (/rate limited|replica|budget/i.test(line) && budgetWarnings.length < 40) budgetWarnings.push(`${new Date().toISOString()} pid ${child.pid}: ${line.slice(0, 300)}`);
            }
          });
        }
      }
      return child;
    };
    const workers = [0, 1, 2].map(() => seatflow(['worker']));
    const submit = await finished(seatflow(['submit', manifest, '--yes', '--json']), 60_000);
    expect(submit.code, submit.stderr).toBe(0);
    const batchId = (JSON.parse(submit.stdout) as { id: string }).id;
    const watch = finished(seatflow(['status', batchId, '--watch']), 120_000);

    redis = await openRedis({ url: topology.url, dataDir: dir, logger: createSilentLogger() });
    const keys = createQueueKeys(prefix);
    const store = createBatchStore(redis.client, keys);
    const progress = async (): Promise<number> => {
      const batch = await store.get(batchId);
      return (batch?.counts.succeeded ?? 0) + (batch?.counts.unchanged ?? 0);
    };
    await waitUntil(async () => (await progress()) >= 15, 45_000, 'the fleet to finish 15 rows');
    const doneAtFailover = await progress();
    const failoverAtMs = Date.now();
    const failedOver = await topology.failover({ queueKey: `${prefix}:${rowsQueueName(server.url)}:wait`, batchKey: keys.batch(batchId) });
    // A few rows past the failover, not a fixed count: on a loaded machine the count read before it can already be
    // near 30, and the worker must die with rows left.
    const killAfter = Math.min(doneAtFailover + 5, ROWS - 10);
    await waitUntil(async () => (await progress()) >= killAfter, 45_000, `the fleet to finish ${killAfter} rows after the failover`);
    const killed = workers[0] as ChildProcess;
    killed.kill('SIGKILL');
    const killAtMs = Date.now();
    const doneAtKill = await progress();

    // When the batch never ends, say where each unfinished row's job stands (the failure is then readable from a CI log).
    const watched = await watch.catch(async (error: unknown) => {
      const queue = new Queue(rowsQueueName(server!.url), { connection: redis!.bullmqConnection(), prefix });
      const unfinished: string[] = [];
      try {
        for (let row = 1; row <= ROWS; row += 1) {
          if (await store.hasOutcome(batchId, row)) continue;
          const job = await queue.getJob(rowJobId(batchId, row));
          unfinished.push(`row ${row}: ${job === undefined ? 'no job' : `job ${await job.getState()}, ${job.attemptsMade} attempts, delay ${job.delay} ms, processed ${job.processedOn ?? '-'}, failed "${job.failedReason ?? ''}"`}`);
        }
      } finally {
        await queue.close();
      }
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nrows without an outcome on the master now:\n${unfinished.join('\n')}`);
    });
    expect(watched.code, watched.stderr).toBe(0);
    // Nobody may repair the state from here: what is read below is what the fleet left.
    await Promise.all(workers.map(async (worker) => {
      if (worker.exitCode !== null || worker.signalCode !== null) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGKILL');
      await exited;
    }));
    await topology.settle?.();
    const batch = await store.get(batchId);
    if (batch === undefined) throw new Error('the batch record is gone');
    const outcomes: RowOutcome[] = [];
    for await (const outcome of store.outcomes(batchId)) outcomes.push(outcome);
    const response = await fetch(`${server.origin}/_sim/mutations`, { headers: { authorization: `Bearer ${server.tokens.admin}` } });
    const body = (await response.json()) as { data?: Mutation[] } | Mutation[];
    const mutations = Array.isArray(body) ? body : (body.data ?? []);
    await expectKeysInTheirSlots(topology, prefix, batchId, server.url, tokenKey(server.tokens.admin));
    const since = (at: number, mark: number): string => `${at >= mark ? '+' : ''}${((at - mark) / 1000).toFixed(2)} s`;
    const refusedAt = [
      ...refusedAtMs.map((at) => `${since(at, failoverAtMs)} from the failover, ${since(at, killAtMs)} from the kill`),
      ...(refusedAtMs.length > 0 ? [`failover at ${new Date(failoverAtMs).toISOString()}, the workers said:`, ...budgetWarnings] : []),
    ];
    return { batch, outcomes, mutations, refused429, refusedAt, failedOver, doneAtFailover, doneAtKill, watchOutput: watched.stdout + watched.stderr };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await redis?.close().catch(() => undefined);
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every row has one outcome and changed its user once, as the mutation log shows; no 429 reached the fleet. */
export function expectFleetDidItsWork(result: FleetResult): void {
  expect(result.doneAtFailover).toBeLessThan(ROWS);
  expect(result.doneAtKill).toBeLessThan(ROWS);
  expect(result.batch.state).toBe('finished');
  expect(result.outcomes).toHaveLength(ROWS);
  expect(new Set(result.outcomes.map((o) => o.row)).size).toBe(ROWS);
  expect(result.outcomes.filter((o) => o.outcome === 'failed')).toEqual([]);
  const changed = result.outcomes.filter((o) => o.outcome === 'succeeded' || (o.outcome === 'unchanged' && o.confirmed === true));
  expect(changed).toHaveLength(ROWS);
  const perUser = new Map<number, number>();
  for (const m of result.mutations.filter((m) => m.operation === 'deactivateUser')) {
    if (m.userId !== undefined) perUser.set(m.userId, (perUser.get(m.userId) ?? 0) + 1);
  }
  for (const outcome of changed) expect(perUser.get(outcome.userId ?? -1), `changes of ${outcome.email}`).toBe(1);
  expect(perUser.size).toBe(ROWS);
  expect(result.refused429, `429s refused at:\n${result.refusedAt.join('\n')}`).toBe(0);
  expect(result.watchOutput).toContain('finished');
}

/**
 * Every key of the test's prefix carries a hash tag, and the tag is what it belongs to: the batch (its record, rows,
 * outcomes, markers), the queue (BullMQ's keys), the token (the budget) or the batch index, the two other queues every
 * `seatflow worker` watches (offboarding steps, reconciliation schedules), governance's own records (the audit log,
 * approvals, the notification queue and its deliveries) or the service's events (the own-change ledger each worker
 * writes before a call that changes a user); on a cluster, each key sits in the slot of its tag.
 */
async function expectKeysInTheirSlots(topology: FleetTopology, prefix: string, batchId: string, target: string, token: string): Promise<void> {
  const tagOf = (queueName: string): string => queueName.slice(1, -1);
  const found = await topology.scanKeys(`${prefix}:*`);
  expect(found.length).toBeGreaterThan(5);
  const allowed = new Map([
    [batchId, 'batch'],
    [tagOf(rowsQueueName(target)), 'queue'],
    [tagOf(stepQueueNameOf(target)), 'steps'],
    [tagOf(scheduleQueueNameOf(target)), 'schedules'],
    [token, 'budget'],
    ['index', 'index'],
    ['audit', 'audit'],
    ['approvals', 'approvals'],
    ['notifications', 'notifications'],
    ['events', 'events'],
  ]);
  const kinds = new Set<string>();
  for (const { key, slot } of found) {
    const tag = /\{([^}]*)\}/.exec(key)?.[1];
    expect(tag, `hash tag of ${key}`).toBeDefined();
    expect(allowed.has(tag as string), `${key} belongs to nothing of this batch`).toBe(true);
    kinds.add(allowed.get(tag as string) as string);
    const expected = await topology.slotOf(`{${tag as string}}`);
    if (expected !== undefined) expect(slot, `slot of ${key}`).toBe(expected);
  }
  expect([...kinds]).toEqual(expect.arrayContaining(['batch', 'budget', 'index', 'queue']));
}


async function finished(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`seatflow ${child.spawnargs.slice(2, 4).join(' ')} did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
