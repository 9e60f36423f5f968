import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { createSilentLogger } from '../../src/core/logger.js';
import { createOffboardingSystem } from '../../src/workflow/offboarding-system.js';
import type { PendingStep } from '../../src/workflow/step-index.js';
import { stepJobId, type StepJobData } from '../../src/workflow/step-job.js';
import { DAY, TEST_OFFBOARDING, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const HOUR = 3_600_000;

const { open } = useOffboardingHarnesses();

describe('an offboarding step a sweep looks at while a worker whose clock is behind sends it back to wait', () => {
  // Found by the whole-system simulation (soak seed 5, gate seed 20): each process reads the service's clock at its own
  // moment, so one worker's sweep promoted a step that another worker, its clock read an hour earlier, found not yet
  // due and sent back to wait. A sweep that looked at the step while that worker held it took it off the sweep's list
  // ("a worker has it"), after the worker had put it back there: the step waited as a delayed job of hours of wall
  // time that no sweep would promote, and its leaver stayed `scheduled` for good.
  it('stays on the sweep’s list, and runs once when it is due on the worker’s clock too', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + 2 * DAY).toISOString()}`]);
    const leaver = await o.leaver(workflow.id, a!);
    const { stepQueue } = o.system.engine.context;
    const jobId = stepJobId(workflow.id, leaver.row, 'deactivate');

    // The step worker is another process's: its estimate of the service's clock is an hour behind, until it reads it again.
    let behindMs = HOUR;
    const behind: Clock = { now: () => o.clock.now() - behindMs, sleep: systemClock.sleep };
    const lagging = createOffboardingSystem({ batches: h.system, redis: h.redisHandle, prefix: h.prefix, target: h.server.url, sim: true, logger: createSilentLogger(), offboarding: TEST_OFFBOARDING, clock: behind });
    // The right clock's sweep runs at the moment the worker has put the step back on the sweep's list and still holds it.
    const index = lagging.engine.context.steps;
    const sendBack = index.waiting.bind(index);
    let sweptWhileHeld = false;
    lagging.engine.context.steps = {
      ...index,
      async waiting(workflowId: string, step: PendingStep) {
        await sendBack(workflowId, step);
        if (sweptWhileHeld) return;
        expect(await (await stepQueue.getJob(jobId))?.getState()).toBe('active');
        await o.system.promoteDue(o.clock.now());
        sweptWhileHeld = true;
      },
    };
    h.startWorkers({ concurrency: 4 });
    const steps = lagging.startStepWorker({ api: h.api, concurrency: 4, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    try {
      await o.advance(2 * DAY + 60_000);
      await o.waitFor(async () => sweptWhileHeld && (await ((await stepQueue.getJob(jobId)) as Job<StepJobData> | undefined)?.getState()) === 'delayed');
      expect(await o.changesOf(a!)).toEqual([]);
      expect((await o.leaver(workflow.id, a!)).phase).toBe('scheduled');

      // The worker reads the clock again: the step is due there too, and the next sweep hands it out.
      behindMs = 0;
      await o.advance(1000);
      await o.waitFor(async () => (await o.leaver(workflow.id, a!)).phase === 'holding', 20_000);
      expect(await o.changesOf(a!)).toEqual(['deactivateUser']);
    } finally {
      await steps.close(2000);
      await lagging.close();
    }
  });
});
