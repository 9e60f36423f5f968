import { describe, expect, it } from 'vitest';
import { stepJobId } from '../../src/workflow/step-job.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('an offboarding step whose job was lost (a Redis failover dropped it)', () => {
  it('is queued again when it falls due, and runs once: the leaver is deactivated on the date, then removed after the hold', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + 2 * DAY).toISOString()}`]);
    o.startWorkers();
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, a!);
    expect(leaver.phase).toBe('scheduled');
    // The step index still says the deactivation is to come; no job holds it any more.
    const { stepQueue } = o.system.engine.context;
    expect(await stepQueue.remove(stepJobId(workflow.id, leaver.row, 'deactivate'))).toBe(1);
    expect((await o.system.engine.steps({ workflowId: workflow.id })).map((step) => [step.step, step.job])).toEqual([['deactivate', 'missing']]);

    await o.advance(2 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('removed');
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'removeUser']);
  });

  it('runs again when its job failed with nothing recorded (as BullMQ fails a job stalled past its limit, telling no worker)', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + 2 * DAY).toISOString()}`]);
    o.startWorkers();
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, a!);
    // What BullMQ's stalled-jobs script leaves: the job out of its set and in the failed one, no worker's 'failed'
    // event, so nothing recorded the step's end; the step index still lists the deactivation to come.
    const { stepQueue } = o.system.engine.context;
    const jobId = stepJobId(workflow.id, leaver.row, 'deactivate');
    const redis = h.redisHandle.client;
    await redis.multi().zrem(stepQueue.keys.delayed!, jobId).zadd(stepQueue.keys.failed!, Date.now(), jobId).hset(stepQueue.toKey(jobId), 'failedReason', 'job stalled more than allowable limit', 'finishedOn', String(Date.now())).exec();
    expect(await (await stepQueue.getJob(jobId))?.getState()).toBe('failed');
    expect((await o.system.engine.steps({ workflowId: workflow.id })).map((step) => [step.step, step.job])).toEqual([['deactivate', 'gave-up']]);

    await o.advance(2 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('removed');
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'removeUser']);
  });
});
