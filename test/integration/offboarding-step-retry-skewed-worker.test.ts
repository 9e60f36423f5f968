import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { StepJobData } from '../../src/workflow/step-job.js';
import { DAY, leaverDueInTwoDays, TEST_OFFBOARDING, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { ROOT } from '../helpers/run-seatflow.js';
import { skewPreload } from '../helpers/skewed-clock.js';

const { batches, open } = useOffboardingHarnesses();

/**
 * Looking into steps the whole-system simulation found stuck (soak seeds 203, 601: a step listed, due days before,
 * its job delayed and never run): BullMQ dates a delayed job by the Date.now() of the process that delays it, its own
 * retries included. A step that failed on a worker whose clock was a day ahead was put a day away for every worker
 * whose clock is right; being started, it was on no sweep's list either.
 */
describe('an offboarding step that fails on a worker whose clock is a day ahead', () => {
  it('runs again seconds later (the sweep takes its retry), and the leaver is deactivated', async () => {
    const { h, o } = await open();
    const { email: a, workflowId, stepQueue, deactivateJobId: jobId } = await leaverDueInTwoDays(h, o);

    const config = path.join(h.dir, 'worker.json');
    writeFileSync(config, JSON.stringify({ offboarding: TEST_OFFBOARDING, retry: { maxAttempts: 2, maxElapsedMs: 2000, baseDelayMs: 50, maxDelayMs: 100 } }));
    const env = { ...process.env, REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url, SMARTSHEET_ACCESS_TOKEN: h.server.tokens.admin, SEATFLOW_HOME: path.join(h.dir, 'home') };
    const startWorker = (skewMs: number) =>
      spawn(process.execPath, [...(skewMs === 0 ? [] : ['--import', skewPreload(skewMs)]), path.join(ROOT, 'bin/seatflow'), 'worker', '--config', config], { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore'], env });
    const workers = [startWorker(DAY)];
    const stateOfStep = async () => {
      const job = (await stepQueue.getJob(jobId)) as Job<StepJobData> | undefined;
      return { attempts: job?.attemptsMade ?? 0, state: await job?.getState() };
    };
    try {
      // Up once its step worker is connected (it checked the token first, so the faults come after).
      await o.waitFor(async () => (await stepQueue.getWorkers()).length > 0, 60_000);
      // Every call fails while the step first runs: its read of the leaver's state fails, and the step with it.
      await setFaults(h.server.origin, h.server.tokens.admin, '503:1');
      await o.advance(2 * DAY + 60_000);
      // The step failed on the skewed worker and waits for its next attempt; then that worker's machine is gone, and a
      // worker whose clock is right takes over. The skewed worker would have run it again on its own clock's time.
      await o.waitFor(async () => {
        const step = await stateOfStep();
        return step.attempts >= 1 && step.state === 'delayed';
      }, 60_000);
      workers[0]!.kill('SIGKILL');
      await setFaults(h.server.origin, h.server.tokens.admin, '');
      workers.push(startWorker(0));
      // Its next attempt comes within seconds, by the sweep: BullMQ dated it by the skewed clock, a day away here.
      await o.waitFor(async () => (await o.leaver(workflowId, a)).phase === 'holding', 30_000);
      expect(await o.changesOf(a)).toEqual(['deactivateUser']);
    } finally {
      await Promise.all(
        workers.map(async (worker) => {
          if (worker.exitCode !== null || worker.signalCode !== null) return;
          const exited = once(worker, 'exit');
          worker.kill('SIGTERM');
          await exited;
        }),
      );
    }
  }, 150_000);
});

describe('an offboarding step looking again for its row, parked by a worker whose clock is a day ahead', () => {
  it("is looked at again by the sweep once its row ended, though the row's wake-up was lost", async () => {
    const { h, o } = await open();
    const { email: a, workflow, workflowId, row, stepQueue, deactivateJobId: jobId } = await leaverDueInTwoDays(h, o);
    // Steps only, at first: the step queues its row and waits for it, the row not yet run.
    const steps = o.system.startStepWorker({ api: h.api, concurrency: 4, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    try {
      await o.advance(2 * DAY + 60_000);
      await o.waitFor(async () => {
        const job = (await stepQueue.getJob(jobId)) as Job<StepJobData> | undefined;
        return (job?.data.polls ?? 0) >= 1 && (await job?.getState()) === 'delayed';
      }, 30_000);
      // As a worker a day ahead leaves it: its look again dated a day away here. And the row's wake-up is lost.
      const redis = h.redisHandle.client;
      await redis.zadd(stepQueue.keys.delayed!, (Date.now() + DAY) * 0x1000, jobId);
      await redis.hdel(h.system.keys.rowWaiters(workflow.deactivateBatch), String(row));
      h.startWorkers({ concurrency: 4 });
      await o.waitFor(async () => (await o.leaver(workflowId, a)).phase === 'holding', 30_000);
      expect(await o.changesOf(a)).toEqual(['deactivateUser']);
    } finally {
      await steps.close(2000);
    }
  });
});

async function setFaults(origin: string, token: string, spec: string): Promise<void> {
  const response = await fetch(`${origin}/_sim/faults`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ spec, seed: 7 }) });
  if (!response.ok) throw new Error(`faults: ${response.status} ${await response.text()}`);
}
