import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../helpers/redis-cluster.js';
import { freePort, startTestRedis, type TestRedis } from '../../helpers/redis-server.js';
import { runSeatflow, type SeatflowResult } from '../../helpers/run-seatflow.js';
import { controlApi, type ControlApi } from './control-api.js';
import { signInToDashboard, type DashboardSession } from './dashboard-session.js';
import { seatflowProcess, type SeatflowProcess } from './seatflow-process.js';
import { serviceControls, type ServiceControls } from './service-controls.js';
import { CONTROL_TOKEN, OPERATORS, SERVICE_LIMIT, worldConfig } from './world-config.js';

/** Where the simulation's Redis runs: one server with its append-only file, or a master and replica behind Sentinel. */
export type RedisTopology = 'single' | 'sentinel';

export interface WorldOptions {
  workers: number;
  redis: RedisTopology;
  /** The service clock's start (epoch ms): the demo organization is loaded relative to it. */
  startAt: number;
  /** Kept after the run (logs, reports) when true; removed otherwise. */
  keepDir?: boolean;
}

/**
 * Everything the simulation runs, each as a real process: the reference server (`seatflow sim`) with its clock at
 * `startAt`, a Redis with AOF (or Sentinel), `workers` × `seatflow worker` and one `seatflow serve`; plus the command
 * line (`cli`) as an operator runs it, against the same Redis, prefix and target.
 */
export interface World {
  dir: string;
  service: ServiceControls;
  /** The control API as each operator (their own token). */
  api: { hr: ControlApi; ops: ControlApi; approver: ControlApi; control: ControlApi };
  /** The dashboard, signed in as IT (it-ops, an operator). */
  dashboard(): Promise<DashboardSession>;
  /** The seatflow home every process shares (reports, the sync's and reconciliation's plan reports). */
  home: string;
  workers: SeatflowProcess[];
  serve: SeatflowProcess;
  redis: { topology: RedisTopology; restart(): Promise<void>; failover(): Promise<void> };
  /** The folder of lifecycle policies `POST /v1/syncs` may name (control.syncPolicyDir). */
  policyDir: string;
  /** Files the operators hand to seatflow (manifests, leavers, exports). */
  inbox: string;
  /**
   * The plan webhook `seatflow webhooks subscribe` made at the start (serve takes its callbacks: changes made elsewhere),
   * and the mutation log's last seq once the world was up: the subscription's own changes come before the run.
   */
  events: { webhookId: number; setupSeq: number };
  /** The environment every seatflow process of the world runs with (REDIS_URL, SEATFLOW_QUEUE_PREFIX, …). */
  env: NodeJS.ProcessEnv;
  cli(args: string[], options?: { timeoutMs?: number }): Promise<SeatflowResult>;
  /** What the world's processes cost so far: CPU seconds of the long-running ones, and the command lines run. */
  cost(): { processCpuSeconds: Record<string, number>; commands: number; commandWallMs: number; restarts: Record<string, number> };
  close(): Promise<void>;
}

export async function startWorld(options: WorldOptions): Promise<World> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seatflow-simulation-'));
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
    if (options.keepDir !== true) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redis = await startRedis(options.redis);
    closers.push(() => redis.stop());

    // Everything starts at once (each costs seconds of loading): workers and serve wait for the reference server and
    // follow its clock once it answers (src/core/service-clock.ts asks until it does).
    const simPort = await freePort();
    const controlPort = await freePort();
    const sim = seatflowProcess({
      name: 'reference-server',
      args: ['sim', '--port', String(simPort), '--rate-limit', `${SERVICE_LIMIT.requests}/${SERVICE_LIMIT.perSeconds}`],
      env: {},
      logFile: path.join(dir, 'reference-server.log'),
    });
    sim.start();
    closers.push(() => sim.stop());
    const service = serviceControls(`http://127.0.0.1:${simPort}`, 'sim-admin-token');

    const policyDir = path.join(dir, 'policies');
    const inbox = path.join(dir, 'inbox');
    mkdirSync(policyDir);
    mkdirSync(inbox);
    const configFile = path.join(dir, 'seatflow.json');
    writeFileSync(configFile, JSON.stringify(worldConfig({ controlPort, syncPolicyDir: policyDir }), null, 2));
    const env: NodeJS.ProcessEnv = {
      REDIS_URL: redis.url,
      SEATFLOW_QUEUE_PREFIX: `sim${Math.random().toString(16).slice(2, 8)}`,
      SMARTSHEET_API_BASE: service.url,
      SMARTSHEET_ACCESS_TOKEN: service.adminToken,
      SEATFLOW_HOME: path.join(dir, 'home'),
      SEATFLOW_CONFIG: configFile,
      // A kept run is one to look into: its logs say what each step and row did, not only what went wrong.
      SEATFLOW_LOG_LEVEL: options.keepDir === true ? 'info' : 'warn',
      SEATFLOW_LOG_FORMAT: 'json',
    };
    const workers = Array.from({ length: options.workers }, (_, i) =>
      seatflowProcess({ name: `worker-${i + 1}`, args: ['worker'], env, logFile: path.join(dir, `worker-${i + 1}.log`), restartAfterMs: 2000 }),
    );
    const serve = seatflowProcess({ name: 'serve', args: ['serve'], env, logFile: path.join(dir, 'serve.log'), restartAfterMs: 2000 });
    for (const worker of workers) {
      worker.start();
      closers.push(() => worker.stop());
    }
    serve.start();
    closers.push(() => serve.stop());
    await sim.waitForOutput(/base URL\s+(\S+)/, 120_000);
    await service.setClock(options.startAt);
    await service.reset();
    const origin = `http://127.0.0.1:${controlPort}`;
    await waitForHealth(origin, serve);
    // serve answers the service's verification, then takes every user change made elsewhere (docs/events.md).
    const subscribed = await runSeatflow(['webhooks', 'subscribe', '--by', 'it-ops'], env, { timeoutMs: 120_000 });
    const webhookId = /plan webhook (\d+)/.exec(subscribed.stdout)?.[1];
    if (subscribed.code !== 0 || webhookId === undefined) throw new Error(`seatflow webhooks subscribe failed (exit ${subscribed.code}): ${subscribed.stdout}${subscribed.stderr}`);
    const setupSeq = (await service.mutations()).reduce((last, mutation) => Math.max(last, mutation.seq), 0);
    let commands = 0;
    let commandWallMs = 0;
    return {
      dir,
      service,
      api: {
        hr: controlApi(origin, OPERATORS.hr.token),
        ops: controlApi(origin, OPERATORS.ops.token),
        approver: controlApi(origin, OPERATORS.approver.token),
        control: controlApi(origin, CONTROL_TOKEN),
      },
      dashboard: () => signInToDashboard(origin, OPERATORS.ops.token),
      home: String(env.SEATFLOW_HOME),
      workers,
      serve,
      redis: { topology: options.redis, restart: () => redis.restart(), failover: () => redis.failover() },
      policyDir,
      inbox,
      events: { webhookId: Number(webhookId), setupSeq },
      env,
      async cli(args, cliOptions = {}) {
        const started = Date.now();
        commands += 1;
        try {
          return await runSeatflow(args, env, { timeoutMs: cliOptions.timeoutMs ?? 600_000 });
        } finally {
          commandWallMs += Date.now() - started;
        }
      },
      cost: () => ({
        processCpuSeconds: Object.fromEntries([sim, serve, ...workers].map((each) => [each.name, each.cpuSeconds()])),
        commands,
        commandWallMs,
        restarts: Object.fromEntries([serve, ...workers].filter((each) => each.restarts() > 0).map((each) => [each.name, each.restarts()])),
      }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

interface RunningRedis {
  url: string;
  restart(): Promise<void>;
  failover(): Promise<void>;
  stop(): Promise<void>;
}

async function startRedis(topology: RedisTopology): Promise<RunningRedis> {
  if (topology === 'single') {
    const redis: TestRedis = await startTestRedis();
    return {
      url: redis.url,
      restart: () => redis.restart(),
      failover: () => redis.restart(),
      stop: () => redis.stop(),
    };
  }
  // Run as docs/operations.md recommends: a master without its replica in sync refuses writes rather than keep them where
  // a failover would drop them (the promoted replica leaves the old master at once, which then refuses every write).
  const sentinel: TestRedisSentinel = await startTestRedisSentinel(1000, { minReplicasToWrite: {} });
  const failover = async () => {
    // Failed over to a replica still syncing from the last failover, Redis loses what the master acknowledged since,
    // whatever the client does (only `min-replicas-to-write` on the servers prevents it, by refusing writes meanwhile:
    // docs/operations.md). Sped up a hundredfold, the days would fail over again within seconds: so, as an operator
    // would, this waits for the pair to be in sync first, or does not fail over.
    await waitForReplicaInSync(sentinel, 30_000);
    const client = sentinel.nodeClient(sentinel.sentinels[0]!.port);
    try {
      await client.call('SENTINEL', 'FAILOVER', sentinel.masterName);
    } finally {
      client.disconnect();
    }
  };
  return { url: sentinel.url, restart: failover, failover, stop: () => sentinel.stop() };
}

/**
 * Until the current master has its replica online and caught up: acknowledging within the second, and holding all but
 * the last few kilobytes of the master's replication stream (a replica under load can ack every second yet be seconds
 * behind, and the failover would drop those seconds). Throws after `timeoutMs`.
 */
/** How far behind the master's replication stream a replica may be and count as caught up (a few writes in flight). */
const CAUGHT_UP_BYTES = 16 * 1024;

async function waitForReplicaInSync(sentinel: TestRedisSentinel, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = '';
  for (;;) {
    const master = sentinel.nodeClient(await sentinel.currentMasterPort());
    try {
      const replication = await master.info('replication');
      const replica = /^slave0:.*state=(\w+),offset=(\d+),lag=(\d+)/m.exec(replication);
      const masterOffset = Number(/^master_repl_offset:(\d+)/m.exec(replication)?.[1] ?? Number.NaN);
      const behind = masterOffset - Number(replica?.[2] ?? Number.NaN);
      if (replica?.[1] === 'online' && Number(replica[3]) <= 1 && behind <= CAUGHT_UP_BYTES) return;
      seen = replica === null ? 'the master has no replica' : `its replica is ${replica[1]}, ${replica[3]} s since its last ack, ${behind} bytes behind`;
    } catch (error) {
      seen = error instanceof Error ? error.message : String(error);
    } finally {
      master.disconnect();
    }
    if (Date.now() > deadline) throw new Error(`the replica is not in sync (${seen}): failing over now would lose what the master took since`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function waitForHealth(origin: string, serve: SeatflowProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const healthy = await fetch(`${origin}/healthz`).then((response) => response.ok).catch(() => false);
    if (healthy) return;
    if (!serve.running()) throw new Error('seatflow serve exited at start (see serve.log in the simulation folder)');
    if (Date.now() > deadline) throw new Error('seatflow serve did not answer /healthz within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
