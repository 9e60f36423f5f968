import { describe, expect, it } from 'vitest';
import { STARTED_LOOK_MS } from '../../src/workflow/step-runner.js';
import { DAY, leaverDueInTwoDays, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

/** A leaver due in two days, workers running, settled: the deactivation's job waits for its date. */
async function scheduledLeaver() {
  const { h, o } = await open();
  const leaver = await leaverDueInTwoDays(h, o);
  o.startWorkers();
  await o.settle(leaver.workflowId);
  expect((await o.leaver(leaver.workflowId, leaver.email)).phase).toBe('scheduled');
  return { h, o, ...leaver, jobId: leaver.deactivateJobId };
}

/** Once: deactivated on the date, removed after the hold, each change made once. */
async function runsOnceThroughTheHold({ o, email, workflowId }: Awaited<ReturnType<typeof scheduledLeaver>>): Promise<void> {
  await o.advance(2 * DAY + 60_000);
  await o.settle(workflowId);
  expect((await o.leaver(workflowId, email)).phase).toBe('holding');
  await o.advance(7 * DAY + 60_000);
  await o.settle(workflowId);
  expect((await o.leaver(workflowId, email)).phase).toBe('removed');
  expect(await o.changesOf(email)).toEqual(['deactivateUser', 'removeUser']);
}

describe('an offboarding step whose job was lost (a Redis failover dropped it)', () => {
  it('is queued again when it falls due, and runs once: the leaver is deactivated on the date, then removed after the hold', async () => {
    const run = await scheduledLeaver();
    // The step index still says the deactivation is to come; no job holds it any more.
    expect(await run.stepQueue.remove(run.jobId)).toBe(1);
    expect((await run.o.system.engine.steps({ workflowId: run.workflowId })).map((step) => [step.step, step.job])).toEqual([['deactivate', 'missing']]);
    await runsOnceThroughTheHold(run);
  });

  it('runs again when its job failed with nothing recorded (as BullMQ fails a job stalled past its limit, telling no worker)', async () => {
    const run = await scheduledLeaver();
    const { stepQueue, jobId } = run;
    // What BullMQ's stalled-jobs script leaves: the job out of its set and in the failed one, no worker's 'failed'
    // event, so nothing recorded the step's end; the step index still lists the deactivation to come.
    await run.h.redisHandle.client.multi().zrem(stepQueue.keys.delayed!, jobId).zadd(stepQueue.keys.failed!, Date.now(), jobId).hset(stepQueue.toKey(jobId), 'failedReason', 'job stalled more than allowable limit', 'finishedOn', String(Date.now())).exec();
    expect(await (await stepQueue.getJob(jobId))?.getState()).toBe('failed');
    expect((await run.o.system.engine.steps({ workflowId: run.workflowId })).map((step) => [step.step, step.job])).toEqual([['deactivate', 'gave-up']]);
    await runsOnceThroughTheHold(run);
  });

  it('runs again when a worker had started it, then died, and BullMQ failed its job (the sweep looks at started steps too)', async () => {
    const run = await scheduledLeaver();
    const { stepQueue, jobId, workflowId, row } = run;
    // What a worker that started the step records, then its death and BullMQ's stalled-jobs script: the job failed.
    await run.o.system.engine.context.steps.started(workflowId, row, 'deactivate', run.o.clock.now() + STARTED_LOOK_MS);
    await run.h.redisHandle.client.multi().zrem(stepQueue.keys.delayed!, jobId).zadd(stepQueue.keys.failed!, Date.now(), jobId).hset(stepQueue.toKey(jobId), 'failedReason', 'job stalled more than allowable limit', 'finishedOn', String(Date.now())).exec();
    await runsOnceThroughTheHold(run);
  });
});
