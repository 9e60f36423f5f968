import type { Job } from 'bullmq';
import type { Lifecycle } from './lifecycle.js';
import { DEFAULT_LIFECYCLE, personStepOf, type WorkflowBase } from './workflow-shapes.js';
import { stepJobId, stepJobOptions, type StepJobData } from './step-job.js';
import type { EngineContext } from './workflow-context.js';

/**
 * Where a pending step's job is. running: a worker has it now; row-queued: the step queued its row and looks again
 * for its outcome; queued: due and waiting for a worker; waiting: not due yet (a delayed job); gave-up: its job failed
 * and nothing recorded the step's end (the due sweep runs it again); missing: no job holds it (the due sweep queues it
 * again once due; `seatflow steps run` at once).
 */
export type StepJobState = 'running' | 'row-queued' | 'queued' | 'waiting' | 'gave-up' | 'missing';

/** One step to come, of one person of one workflow, as `seatflow steps` lists it. */
export interface StepView {
  workflowId: string;
  /** The workflow's lifecycle: offboarding, joiners, movers. */
  lifecycle: string;
  row: number;
  email: string;
  phase: string;
  step: string;
  /** When it is due, on the service clock (ISO). */
  dueAt: string;
  /** Due by now on the service clock. */
  due: boolean;
  job: StepJobState;
}

const ALREADY = {
  running: 'a worker is running it now',
  'row-queued': 'it runs: its row is queued and the step waits for its outcome',
  queued: 'already due: it waits for a worker (seatflow worker)',
} as const;

const JOB_STATE: Readonly<Record<string, StepJobState>> = { active: 'running', waiting: 'queued', prioritized: 'queued', 'waiting-children': 'queued', delayed: 'waiting', failed: 'gave-up' };

/**
 * The steps of one workflow still to come, in due order, with the person they belong to and where their job is. Reads
 * the step index (not every person), then one person and one job per listed step.
 */
export async function pendingSteps(context: EngineContext, lifecycle: Lifecycle, workflow: WorkflowBase, options: { dueOnly?: boolean; limit?: number } = {}): Promise<StepView[]> {
  const now = context.clock.now();
  const steps = await context.steps.list(workflow.id, { ...(options.dueOnly === true ? { dueBy: now } : {}), ...(options.limit === undefined ? {} : { limit: options.limit }) });
  const views: StepView[] = [];
  for (const step of steps) {
    const leaver = await lifecycle.persons.get(workflow.id, step.row);
    if (leaver === undefined) continue;
    const job = (await context.stepQueue.getJob(stepJobId(workflow.id, step.row, step.step))) as Job<StepJobData> | undefined;
    const state = job === undefined ? undefined : await job.getState();
    const polling = state === 'delayed' && (job?.data.polls ?? 0) > 0;
    views.push({
      workflowId: workflow.id,
      lifecycle: workflow.lifecycle ?? DEFAULT_LIFECYCLE,
      row: step.row,
      email: leaver.email,
      phase: leaver.phase,
      step: step.step,
      dueAt: new Date(step.dueAt).toISOString(),
      due: step.dueAt <= now,
      job: polling ? 'row-queued' : state === undefined ? 'missing' : (JOB_STATE[state] ?? 'missing'),
    });
  }
  return views;
}

export interface RunNowRequest {
  /** Only these steps (as `pendingSteps` listed them). */
  steps?: readonly Pick<StepView, 'row' | 'step'>[];
  /** Only these people's steps (e-mails); every pending step of the workflow when neither this nor `steps` is given. */
  users?: readonly string[];
  /** Only steps of this name. */
  step?: string;
  /** Who asked; recorded on the person. */
  by: string;
}

export interface RunNowResult extends StepView {
  /** run: due now and handed to a worker; already: a worker has it, or it is already due and queued. */
  result: 'run' | 'already';
  message: string;
}

/**
 * Runs steps now instead of when they fall due: the leave date brought forward (deactivate), the hold ended early
 * (remove: undo is no longer possible from then on), a start date brought forward, a reactivation taken at once. The
 * step's due time becomes now, on the person (what the lifecycle says changes with it: an offboarding's holdUntil)
 * and on its job, which is promoted (or queued again when no job held it); the person's steps record who did it and
 * when the step was due. The step itself runs as it would have: a worker takes it.
 */
export async function runStepsNow(context: EngineContext, lifecycle: Lifecycle, workflow: WorkflowBase, request: RunNowRequest): Promise<RunNowResult[]> {
  const wanted = request.users?.map((email) => email.trim().toLowerCase());
  const results: RunNowResult[] = [];
  for (const view of await pendingSteps(context, lifecycle, workflow)) {
    if (request.steps !== undefined && !request.steps.some((chosen) => chosen.row === view.row && chosen.step === view.step)) continue;
    if ((wanted !== undefined && !wanted.includes(view.email)) || (request.step !== undefined && request.step !== view.step)) continue;
    if (view.job === 'running' || view.job === 'queued' || view.job === 'row-queued') {
      results.push({ ...view, result: 'already', message: ALREADY[view.job] });
      continue;
    }
    const now = context.clock.now();
    const at = new Date(now);
    const note = `${view.step} run now by ${request.by}; it was due ${view.dueAt}`;
    await lifecycle.persons.update(workflow.id, view.row, (current) => {
      const forward = lifecycle.broughtForward?.(current, view.step, now) ?? current;
      return { ...forward, steps: [...forward.steps, personStepOf('run-now', view.step, at, note)] };
    });
    const data: StepJobData = { workflowId: workflow.id, row: view.row, step: view.step, dueAt: now };
    await context.steps.add(workflow.id, [data]);
    const job = (await context.stepQueue.getJob(stepJobId(workflow.id, view.row, view.step))) as Job<StepJobData> | undefined;
    if (job === undefined) await context.stepQueue.add(view.step, data, stepJobOptions(data, now));
    else {
      await job.updateData({ ...job.data, dueAt: now });
      // A failed job would not move on a promote: it is the one state asked to run again.
      await (view.job === 'gave-up' ? job.retry('failed') : job.promote()).catch(() => undefined);
    }
    results.push({ ...view, due: true, dueAt: at.toISOString(), result: 'run', message: `${note}${view.step === 'remove' ? ' (the hold ends now: undo is no longer possible once the removal starts)' : ''}` });
  }
  return results;
}
