import os from 'node:os';
import { createSilentLogger } from '../../src/core/logger.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import type { Config } from '../../src/core/config.js';
import type { LoggedRequest } from '../../src/server/sim/request-log.js';
import { MIGRATION_LIFECYCLES } from '../../src/migrate/migration-lifecycles.js';
import { HR_LIFECYCLES } from '../../src/sync/hr-lifecycles.js';
import { createOffboardingSystem, type OffboardingSystem } from '../../src/workflow/offboarding-system.js';
import { createBatchHarness, type BatchHarness } from '../../test/helpers/batch-harness.js';
import type { TestRedis } from '../../test/helpers/redis-server.js';

export const DAY = 86_400_000;

export const OFFBOARDING: Config['offboarding'] = { reactivationWindowDays: 30, defaultHoldDays: 7, minHoldHours: 24, stepPollMs: 250, dueSweepMs: 500, lastDayEndsAt: '24:00' };
export const GUARDRAILS: Config['guardrails'] = { destructiveMaxCount: 1e9, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e9 };

/**
 * What one scenario of bench/calls.ts works with: a reference server of its own (rate limit off: the calls are counted,
 * not timed), a fresh queue prefix on the bench's Redis, row and step workers in this process, the offboarding system
 * with the HR and migration lifecycles on the server's clock (every lifecycle a worker runs, as the CLI's); and the server's request log, from which every figure is counted.
 */
export interface CallEnv {
  h: BatchHarness;
  offboarding: OffboardingSystem;
  clock: Clock;
  /** The calls the server answered since `mark()` returned `since`. */
  callsSince(since: number): LoggedRequest[];
  mark(): number;
  /** Polls until `check` holds (a bench has no deadline but this one: a stuck workflow fails the bench). */
  until(check: () => Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  /** Moves the server's clock and runs the steps due by then. */
  advance(ms: number): Promise<void>;
  /** Every workflow of the target has nothing due by now. */
  settled(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openCallEnv(redis: TestRedis, users: number): Promise<CallEnv> {
  const h = await createBatchHarness(redis, { users, rateLimit: 'off' }, { requests: 1e9, perSeconds: 1, headroom: 0 });
  const serverClock = h.server.context.clock;
  const clock: Clock = { now: () => serverClock.now(), sleep: systemClock.sleep };
  const offboarding = createOffboardingSystem({ batches: h.system, redis: h.redisHandle, prefix: h.prefix, target: h.server.url, sim: true, logger: createSilentLogger(), offboarding: OFFBOARDING, clock, lifecycles: [...HR_LIFECYCLES, ...MIGRATION_LIFECYCLES] });
  const rows = h.startWorkers({ concurrency: 32 });
  const steps = offboarding.startStepWorker({ api: h.api, concurrency: 32, sweepMs: 500 });
  const env: CallEnv = {
    h,
    offboarding,
    clock,
    mark: () => h.server.requests.list().at(-1)?.seq ?? 0,
    callsSince: (since) => h.server.requests.list({ afterSeq: since }),
    async until(check, what, timeoutMs = 600_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`${what}: not done in ${timeoutMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async advance(ms) {
      serverClock.advance(ms);
      await offboarding.promoteDue(clock.now());
    },
    async settled() {
      for (const workflow of await offboarding.engine.activeWorkflows()) if (!(await offboarding.settled(workflow.id))) return false;
      return true;
    },
    async close() {
      await steps.close(2000);
      await rows.close(2000);
      await offboarding.close();
      await h.close();
    },
  };
  return env;
}

/** The load average while a figure was measured, as every figure of docs/benchmarks.md gives it. */
export function load(): string {
  return `${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
}
