import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { stepJobId, type StepJobData } from '../../src/workflow/step-job.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('an offboarding step handed out before it is due after it had looked for its row', () => {
  // Found by the whole-system simulation (seeds 2 and 8): a step that had polled for its row's outcome was handed to a
  // worker whose service clock was behind; it went back to wait for its due instant as polling work, which the sweep
  // leaves alone, so it waited that long in wall time and its leaver stayed `deactivating` with the row done.
  it('goes back to wait for its due instant, and the sweep runs it when it falls due', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + 2 * DAY).toISOString()}`]);
    const leaver = await o.leaver(workflow.id, a!);
    const { stepQueue } = o.system.engine.context;
    const job = (await stepQueue.getJob(stepJobId(workflow.id, leaver.row, 'deactivate'))) as Job<StepJobData>;
    await job.updateData({ ...job.data, polls: 3 });
    await job.promote();
    expect(await job.getState()).toBe('waiting');

    o.startWorkers();
    await o.waitFor(async () => (await stepQueue.getJob(job.id!))?.getState().then((state) => state === 'delayed') ?? false);
    expect((await o.system.engine.steps({ workflowId: workflow.id })).map((step) => [step.step, step.job])).toEqual([['deactivate', 'waiting']]);
    expect(await o.changesOf(a!)).toEqual([]);

    await o.advance(2 * DAY + 60_000);
    await o.waitFor(async () => (await o.leaver(workflow.id, a!)).phase === 'holding', 20_000);
    expect(await o.changesOf(a!)).toEqual(['deactivateUser']);
  });
});
