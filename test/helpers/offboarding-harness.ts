import { afterEach, expect } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import type { RetryPolicy } from '../../src/queue/retry-policy.js';
import type { Config } from '../../src/core/config.js';
import { createSilentLogger } from '../../src/core/logger.js';
import type { LeaverState } from '../../src/workflow/leaver-state.js';
import { createOffboardingSystem, type OffboardingSystem } from '../../src/workflow/offboarding-system.js';
import type { OffboardingOptions, OffboardingPlan } from '../../src/workflow/plan-offboarding.js';
import { readLeavers } from '../../src/workflow/read-leavers.js';
import { stepJobId } from '../../src/workflow/step-job.js';
import type { LifecycleFactory } from '../../src/workflow/workflow-engine.js';
import type { WorkflowRecord } from '../../src/workflow/workflow-store.js';
import type { StartReferenceServerOptions } from '../../src/server/index.js';
import { useBatchHarnesses } from './batch-fixtures.js';
import type { BatchHarness } from './batch-harness.js';

export const DAY = 86_400_000;

export const TEST_OFFBOARDING: Config['offboarding'] = { reactivationWindowDays: 7, defaultHoldDays: 7, minHoldHours: 24, stepPollMs: 100, dueSweepMs: 500, lastDayEndsAt: '24:00' };

const GUARDRAILS: Config['guardrails'] = { destructiveMaxCount: 1e6, destructiveMaxShare: 1, protectedAccounts: [], maxRows: 1e6 };

/**
 * The offboarding workflow over a batch harness, on the reference server's clock: moving that clock and promoting the
 * steps due by it stands in for waiting days (BullMQ's delays run on real time; the workflow's due times on this clock).
 */
export interface OffboardingHarness {
  system: OffboardingSystem;
  clock: Clock;
  plan(lines: string[], options?: Partial<OffboardingOptions>): Promise<OffboardingPlan>;
  offboard(lines: string[], options?: Partial<OffboardingOptions>): Promise<WorkflowRecord>;
  /** Row workers (with this retry policy, default the harness's fast one) and a step worker in this process. */
  startWorkers(policy?: RetryPolicy): void;
  stopWorkers(): Promise<void>;
  /** Moves the server's clock and runs the steps due by then. */
  advance(ms: number): Promise<void>;
  settle(workflowId: string, timeoutMs?: number): Promise<void>;
  waitFor(check: () => Promise<boolean>, timeoutMs?: number): Promise<void>;
  leaver(workflowId: string, email: string): Promise<LeaverState>;
  /** Operations of the mutation log on this user. */
  changesOf(email: string): Promise<string[]>;
}

export function createOffboardingHarness(h: BatchHarness, offboarding: Config['offboarding'] = TEST_OFFBOARDING, lifecycles: readonly LifecycleFactory[] = []): OffboardingHarness {
  const serverClock = h.server.context.clock;
  const clock: Clock = { now: () => serverClock.now(), sleep: systemClock.sleep };
  const system = createOffboardingSystem({ batches: h.system, redis: h.redisHandle, prefix: h.prefix, target: h.server.url, sim: true, logger: createSilentLogger(), offboarding, clock, lifecycles });
  const pools: { close(graceMs: number): Promise<void> }[] = [];
  let files = 0;
  const waitFor = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const harness: OffboardingHarness = {
    system,
    clock,
    async plan(lines, options = {}) {
      files += 1;
      const file = await readLeavers({
        path: h.writeManifest(`leavers-${files}.csv`, lines),
        lastDayEndsAt: offboarding.lastDayEndsAt,
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
        ...(options.columns === undefined ? {} : { columns: options.columns }),
      });
      return system.plan(file, { api: h.api, config: { guardrails: GUARDRAILS, offboarding }, options: { holdMs: 7 * DAY, removeFromSharing: false, ...options } });
    },
    async offboard(lines, options) {
      return (await system.submit(await harness.plan(lines, options))).workflow;
    },
    startWorkers(policy) {
      pools.push(h.startWorkers({ concurrency: 4, ...(policy === undefined ? {} : { policy }) }));
      pools.push(system.startStepWorker({ api: h.api, concurrency: 4, lockDurationMs: 4000, stalledIntervalMs: 1000 }));
    },
    async stopWorkers() {
      await Promise.all(pools.splice(0).map((pool) => pool.close(2000)));
    },
    async advance(ms) {
      serverClock.advance(ms);
      await system.promoteDue(clock.now());
    },
    async settle(workflowId, timeoutMs) {
      await waitFor(() => system.settled(workflowId), timeoutMs);
    },
    waitFor,
    async leaver(workflowId, email) {
      const found = (await system.store.leavers(workflowId)).find((leaver) => leaver.email === email);
      expect(found, email).toBeDefined();
      return found!;
    },
    async changesOf(email) {
      const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
      return (await h.mutations()).filter((m) => m.userId === user?.id).map((m) => m.operation);
    },
  };
  return harness;
}

/**
 * One test Redis for the file and, per test, a batch harness (reference server with rate limiting off) with the
 * offboarding workflow over it; workers and the workflow are closed after each test.
 */
export function useOffboardingHarnesses(): {
  batches: ReturnType<typeof useBatchHarnesses>;
  open: (serverOptions?: StartReferenceServerOptions) => Promise<{ h: BatchHarness; o: OffboardingHarness }>;
} {
  const batches = useBatchHarnesses();
  let current: OffboardingHarness | undefined;
  afterEach(async () => {
    await current?.stopWorkers();
    await current?.system.close();
    current = undefined;
  });
  return {
    batches,
    async open(serverOptions = {}) {
      const h = await batches.open({ rateLimit: 'off', ...serverOptions });
      current = createOffboardingHarness(h);
      return { h, o: current };
    },
  };
}

/**
 * One leaver whose leave date is two days ahead, offboarded (no worker started): its address, the workflow (and its id),
 * its row, and the step queue with the id of the deactivation's job, which waits for that date.
 */
export async function leaverDueInTwoDays(h: BatchHarness, o: OffboardingHarness) {
  const [email] = await h.deactivatableEmails(1);
  const workflow = await o.offboard(['email,leaveDate', `${email},${new Date(o.clock.now() + 2 * DAY).toISOString()}`]);
  const leaver = await o.leaver(workflow.id, email!);
  return { email: email!, workflow, workflowId: workflow.id, row: leaver.row, stepQueue: o.system.engine.context.stepQueue, deactivateJobId: stepJobId(workflow.id, leaver.row, 'deactivate') };
}
