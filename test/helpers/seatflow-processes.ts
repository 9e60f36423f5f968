import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { FAST_RETRY, type BatchHarness } from './batch-harness.js';
import { ROOT, runSeatflow, type SeatflowResult } from './run-seatflow.js';

/**
 * The seatflow commands of one batch harness as separate processes, as an operator runs them: the harness's Redis,
 * queue prefix, reference server and admin token in the environment, a config file with short locks and a fast step
 * poll. `worker()` starts a `seatflow worker`; every one started is stopped by `stop()`. To see what the workers log
 * while a test runs, set SEATFLOW_TEST_WORKER_LOG to a log level (e.g. `info`).
 */
export interface SeatflowProcesses {
  env: NodeJS.ProcessEnv;
  run(args: string[]): Promise<SeatflowResult>;
  worker(): ChildProcess;
  stop(): Promise<void>;
}

export function seatflowProcesses(h: BatchHarness, redisUrl: string, config: Record<string, unknown> = {}): SeatflowProcesses {
  const file = h.writeManifest(`seatflow-config-${Date.now()}.json`, [
    JSON.stringify({
      worker: { concurrency: 4, lockDurationMs: 2000, stalledIntervalMs: 1000, shutdownGraceMs: 2000 },
      retry: FAST_RETRY,
      rateLimit: { requests: 6000, perSeconds: 60, headroom: 0 },
      offboarding: { stepPollMs: 100, dueSweepMs: 500 },
      ...config,
    }),
  ]);
  const env = {
    REDIS_URL: redisUrl,
    SEATFLOW_QUEUE_PREFIX: h.prefix,
    SMARTSHEET_API_BASE: h.server.url,
    SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin,
    SEATFLOW_DATA_DIR: path.join(h.dir, 'data'),
    SEATFLOW_CONFIG: file,
    SEATFLOW_LOG_LEVEL: process.env.SEATFLOW_TEST_WORKER_LOG ?? 'error',
  };
  const children: ChildProcess[] = [];
  return {
    env,
    run: (args) => runSeatflow(args, env),
    worker() {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin/seatflow'), 'worker'], { cwd: ROOT, stdio: process.env.SEATFLOW_TEST_WORKER_LOG === undefined ? 'ignore' : 'inherit', env: { ...process.env, ...env } });
      children.push(child);
      return child;
    },
    async stop() {
      await Promise.all(
        children.splice(0).map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
        }),
      );
    },
  };
}
