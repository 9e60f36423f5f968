import type { Queue } from 'bullmq';
import { LIFECYCLE_WORDS, lifecycleOfWorkflowId } from '../../sync/workflow-ids.js';
import type { StepJobData } from '../../workflow/step-job.js';
import type { Notifier } from './notification-event.js';

/** How many waiting steps one look reads; more than that overdue at once is one message's worth anyway. */
const LOOK_AT = 1000;

/**
 * Steps (of offboardings, and of the sync's joiners and movers) due for longer than `graceMs` that no worker took (no
 * worker running, or none for this target): one `offboarding.step-overdue` event per step and due time. Reads the step
 * queue only.
 */
export async function notifyOverdueSteps(stepQueue: Queue<StepJobData>, notifier: Notifier, options: { nowMs: number; graceMs: number; target: string; sim: boolean }): Promise<number> {
  const jobs = await stepQueue.getJobs(['delayed', 'wait', 'prioritized'], 0, LOOK_AT - 1, true);
  let overdue = 0;
  for (const job of jobs) {
    const data = job.data as StepJobData | undefined;
    if (data === undefined || typeof data.dueAt !== 'number' || data.dueAt > options.nowMs - options.graceMs) continue;
    overdue += 1;
    const minutes = Math.round((options.nowMs - data.dueAt) / 60_000);
    // One step queue per target holds every lifecycle's steps (offboarding, and the sync's joiners and movers).
    const lifecycle = lifecycleOfWorkflowId(data.workflowId);
    const offboarding = lifecycle === 'offboarding';
    await notifier.notify({
      id: `step-overdue:${job.id ?? `${data.workflowId}-${data.row}-${data.step}`}:${data.dueAt}`,
      type: 'offboarding.step-overdue',
      title: `${LIFECYCLE_WORDS[lifecycle] ?? lifecycle} step not taken: ${data.step} of row ${data.row} (${data.workflowId})`,
      text: [
        `The ${data.step} step of ${offboarding ? 'leaver' : 'person'} row ${data.row} of ${offboarding ? 'offboarding' : `${lifecycle} workflow`} ${data.workflowId} was due at ${new Date(data.dueAt).toISOString()}, ${minutes} min ago, and no worker has taken it.`,
        'Check that a seatflow worker runs against this target (seatflow doctor), or run due steps now (seatflow steps).',
      ].join('\n'),
      path: offboarding ? `/offboardings/${data.workflowId}` : '/upcoming',
      target: options.target,
      sim: options.sim,
      data: { workflowId: data.workflowId, row: data.row, step: data.step, dueAt: new Date(data.dueAt).toISOString(), minutesLate: minutes },
    });
  }
  return overdue;
}
