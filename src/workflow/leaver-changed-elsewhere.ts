import { USER_EVENT } from '../contract/index.js';
import { noteOf } from './changed-elsewhere.js';
import { endSteps, type StepEnd } from './leaver-ends.js';
import { stepOf, type LeaverState } from './leaver-state.js';
import { stepJobId } from './step-job.js';
import type { WorkflowContext } from './workflow-context.js';
import { describeChangeElsewhere, type ChangeElsewhere } from './workflow-shapes.js';
import { createLeaverStore, type WorkflowRecord } from './workflow-store.js';

/**
 * A leaver whose user changed outside seatflow, re-checked at once. What the end of the hold would find anyway is
 * decided now: reactivated by someone during the hold → not removed (`skipped`, the removal cancelled); removed by
 * someone → `skipped`, nothing of the offboarding left to do. Nothing is done on the service here: a deactivation
 * made elsewhere before the leave date, a seat changed, are kept as notes and the due step's own re-read decides.
 */
export async function leaverChangedElsewhere(context: WorkflowContext, workflow: WorkflowRecord, leaver: LeaverState, change: ChangeElsewhere): Promise<'noted' | 'ended' | 'unchanged'> {
  const removed = change.event === USER_EVENT.removed && (leaver.phase === 'scheduled' || leaver.phase === 'holding');
  const reactivated = change.event === USER_EVENT.reactivated && leaver.phase === 'holding';
  if (!removed && !reactivated) return noteOf({ persons: createLeaverStore(context.redis, context.keys, context.replicated) }, workflow, leaver, change);
  const reason = `${describeChangeElsewhere(change)}: ${removed ? 'nothing of the offboarding is left to do' : 'not removed (reactivated during the hold)'}`;
  const from = leaver.phase;
  const at = new Date(context.clock.now());
  const ended = await context.store.update(workflow.id, leaver.row, (current) =>
    current.phase !== from ? undefined : { ...current, phase: 'skipped', reason, steps: [...current.steps, stepOf('recheck', 'skipped', at, reason)] },
  );
  if (ended === undefined) return 'unchanged';
  for (const step of ['deactivate', 'remove'] as const) {
    // A step that is running right now cannot be removed; it reads the phase and does nothing more.
    await context.stepQueue.remove(stepJobId(workflow.id, leaver.row, step)).catch(() => 0);
    await context.steps.done(workflow.id, leaver.row, step);
  }
  const skipped: StepEnd = { outcome: 'skipped', message: reason };
  await endSteps(context, workflow, ended, { ...(from === 'scheduled' ? { deactivate: skipped } : {}), remove: skipped, reactivate: { outcome: 'skipped', message: 'not undone' } });
  return 'ended';
}
