import { Backoffs, DelayedError, type Job } from 'bullmq';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { msUntilDue } from '../core/clock.js';
import { lifecycleOf, type LifecycleRegistry } from './lifecycle.js';
import { stepJobId, type StepJobData } from './step-job.js';
import type { EngineContext } from './workflow-context.js';

/** The longest wait between two looks at a queued row's outcome. */
const MAX_POLL_MS = 60_000;
/**
 * How long after a worker starts a step the sweep first looks at its job (then at every sweep while the job is held):
 * longer than a step's run takes (its waits are delayed jobs, not runs), so that the sweep reads few running jobs.
 */
export const STARTED_LOOK_MS = 5 * 60_000;

/**
 * The processor of the step queue, for every lifecycle: a step handed out before it is due on the service clock waits
 * until then; the step index learns when a worker starts a step and when it ends; the step itself is the lifecycle's
 * (lifecycle.ts). A step whose row is queued waits as delayed work, not as a timer: the row's end wakes it (its job is
 * the row's waiter); failing that it looks again after `pollMs`, a little longer each time, up to a minute.
 */
export function createStepRunner(context: EngineContext, registry: LifecycleRegistry, api: SmartsheetApi) {
  const { clock } = context;

  return async function processStep(job: Job<StepJobData>, token?: string, signal?: AbortSignal): Promise<string> {
    const { workflowId, row, step } = job.data;
    await clock.refresh?.();
    // Due on the service clock, not this machine's, and surely so (less the clock's uncertainty): a step BullMQ hands
    // out early (this clock ahead of the service's, or the service's clock moved back) waits until it is due there.
    const early = msUntilDue(clock, job.data.dueAt);
    if (early > 0) {
      context.logger.info({ workflowId, row, step, dueAt: new Date(job.data.dueAt).toISOString(), earlyMs: Math.round(early) }, 'step handed out before it is due on the service clock: it waits');
      await context.steps.waiting(workflowId, { row, step, dueAt: job.data.dueAt });
      // It waits for its due instant now, not for a row (this wait is reckoned on a clock found behind, so it may be
      // far too long in this machine's time: the sweep promotes it once due).
      if ((job.data.polls ?? 0) > 0) await job.updateData({ ...job.data, polls: 0 });
      await job.moveToDelayed(Date.now() + early, token);
      throw new DelayedError();
    }
    // Started: on the sweep's list a while on, by the one that knows, so that a step this worker drops (it dies, and
    // BullMQ fails the job after it stalled too often) is looked at and run again, whatever its job's state then.
    await context.steps.started(workflowId, row, step, clock.now() + STARTED_LOOK_MS);
    let ended: string;
    try {
      ended = await runStep(job, token, signal);
    } catch (error) {
      if (!(error instanceof DelayedError) && signal?.aborted !== true) await retryListed(job, error);
      throw error;
    }
    await context.steps.done(workflowId, row, step);
    context.logger.info({ workflowId, row, step, ended }, 'step ended');
    return ended;
  };

  /**
   * A step that failed goes back on the sweep's list, due when BullMQ's retry is (its backoff, on the service clock):
   * BullMQ dates the retry by this machine's clock, and were it a day ahead, no worker whose clock is right would take
   * the step for a day, nor would any sweep, the step being started. The sweep promotes it then, if it still waits.
   */
  async function retryListed(job: Job<StepJobData>, error: unknown): Promise<void> {
    const { workflowId, row, step } = job.data;
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) return;
    // BullMQ's own reckoning of the retry's delay (Job.shouldRetryJob): the job's backoff at the attempt to come.
    const backoff = Backoffs.normalize(job.opts.backoff ?? 0);
    const retryMs = backoff === undefined ? 0 : Math.max(0, (await Backoffs.calculate(backoff, job.attemptsMade + 1, error instanceof Error ? error : new Error(String(error)), job)) ?? 0);
    await context.steps.waiting(workflowId, { row, step, dueAt: Math.max(job.data.dueAt, clock.now() + retryMs) });
    context.logger.warn({ err: error, workflowId, row, step, attempt: job.attemptsMade + 1, retryMs }, 'step failed: it runs again');
  }

  async function runStep(job: Job<StepJobData>, token?: string, signal?: AbortSignal): Promise<string> {
    const { workflowId, row } = job.data;
    const found = await context.records.get(workflowId);
    if (found === undefined) return 'missing';
    const lifecycle = lifecycleOf(registry, found);
    const workflow = await lifecycle.records.get(workflowId);
    const person = await lifecycle.persons.get(workflowId, row);
    if (workflow === undefined || person === undefined) return 'missing';
    // The row's end wakes the step. The look again is the fallback (a row ended by a process that could not wake it):
    // a row normally ends within seconds; one parked by a stopped batch may wait days: look less often as time goes.
    const waitForRow = async (ended?: () => Promise<boolean>): Promise<never> => {
      const polls = job.data.polls ?? 0;
      const lookAgainMs = Math.min(context.pollMs * 1.5 ** polls, MAX_POLL_MS);
      await job.updateData({ ...job.data, polls: polls + 1 });
      // On the sweep's list at the look's time on the service clock: BullMQ dates the delay by this machine's clock,
      // and were it a day ahead, a row's end whose wake-up was lost would leave the step a day away for the others.
      await context.steps.waiting(workflowId, { row, step: job.data.step, dueAt: Math.max(job.data.dueAt, clock.now() + lookAgainMs) });
      await job.moveToDelayed(Date.now() + lookAgainMs, token);
      // The row may have ended while this step still ran, when its wake-up found nothing delayed to promote.
      if (ended !== undefined && (await ended())) await job.promote().catch(() => undefined);
      throw new DelayedError();
    };
    const waiter = { queue: context.stepQueue.name, jobId: job.id ?? stepJobId(workflowId, row, job.data.step) };
    return lifecycle.runStep({ data: job.data, workflow, person, api, ...(signal === undefined ? {} : { signal }), waiter, waitForRow });
  }
}
