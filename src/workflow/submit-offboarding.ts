import { createHash } from 'node:crypto';
import type { PlannedRow } from '../plan/planned-row.js';
import { leaverOutcome } from './leaver-ends.js';
import { canonicalColumnChoices } from './leavers-column-choices.js';
import { stepOf, type LeaverState } from './leaver-state.js';
import type { OffboardingPlan, PlannedLeaver } from './plan-offboarding.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { createOffboardingLifecycle } from './offboarding-lifecycle.js';
import { submitWorkflow } from './submit-workflow.js';
import type { WorkflowContext } from './workflow-context.js';
import { leavingOwner, type NewWorkflow, type WorkflowRecord } from './workflow-store.js';

export interface SubmitOffboardingOptions {
  /** The API base URL, or `sim:<url>`. */
  target: string;
}

export interface SubmittedOffboarding {
  workflow: WorkflowRecord;
  /** False when the same file with the same options had been submitted before: nothing was queued again. */
  created: boolean;
}

/** The id of an offboarding: a hash of the file's bytes, the options and the target, like a batch's. */
export function workflowIdOf(plan: Pick<OffboardingPlan, 'source' | 'options'>, target: string): string {
  const { holdMs, transferTo, removeFromSharing, timeZone, columns } = plan.options;
  // Column choices change what the file means; without any, the id is what it always was.
  const choices = columns === undefined ? '' : `&columns=${canonicalColumnChoices(columns)}`;
  const canonical = `hold=${holdMs}&to=${transferTo ?? ''}&sharing=${removeFromSharing}&tz=${timeZone ?? ''}${choices}`;
  return `o${createHash('sha256').update(`${plan.source.sha256}\n${target}\n${canonical}`).digest('hex').slice(0, 12)}`;
}

/**
 * Queues an offboarding: the workflow record, one step batch per step (deactivate, remove, reactivate, restore) in
 * the existing batch store, the leavers' states, and one delayed `deactivate` step per accepted leaver, due on the leave
 * date. Leavers the plan refused end at once with that reason in every step batch. Safe to repeat after a crash.
 */
export async function submitOffboarding(context: WorkflowContext, plan: OffboardingPlan, options: SubmitOffboardingOptions): Promise<SubmittedOffboarding> {
  const id = workflowIdOf(plan, options.target);
  const at = new Date(context.clock.now());
  const accepted = plan.leavers.filter((leaver) => leaver.verdict !== 'refused');
  const record: NewWorkflow = {
    id,
    source: plan.source.path,
    sha256: plan.source.sha256,
    createdAt: at.toISOString(),
    target: options.target,
    sim: context.sim,
    holdMs: plan.options.holdMs,
    ...(plan.options.transferTo === undefined ? {} : { transferTo: plan.options.transferTo }),
    removeFromSharing: plan.options.removeFromSharing,
    ...(plan.options.timeZone === undefined ? {} : { timeZone: plan.options.timeZone }),
    total: plan.leavers.length,
    deactivateBatch: `${id}-deactivate`,
    removeBatch: `${id}-remove`,
    reactivateBatch: `${id}-reactivate`,
    restoreBatch: `${id}-restore`,
    tracksOpen: true,
  };
  const stepBatches = [
    [record.deactivateBatch, 'deactivate', accepted.filter((l) => l.verdict !== 'already-deactivated').length],
    [record.removeBatch, 'remove', accepted.length],
    [record.reactivateBatch, 'reactivate', 0],
    [`${id}-restore`, 'restore', 0],
  ] as const;
  const endedAtOnce: RowOutcome[] = [];
  for (const leaver of plan.leavers) {
    if (leaver.verdict === 'refused') {
      const end = { outcome: 'skipped' as const, message: leaver.reason ?? 'refused at plan time', extra: { category: 'Refused', ...(leaver.rule === undefined ? {} : { rule: leaver.rule }) } };
      for (const [batchId, action] of stepBatches) endedAtOnce.push(leaverOutcome(batchId, leaver, action, end, context.sim, at));
      continue;
    }
    if (leaver.verdict === 'already-deactivated') {
      endedAtOnce.push(leaverOutcome(record.deactivateBatch, leaver, 'deactivate', { outcome: 'unchanged', message: 'already deactivated before the offboarding' }, context.sim, at));
    }
  }
  const submitted = await submitWorkflow(context, {
    lifecycle: createOffboardingLifecycle(context),
    record,
    persons: plan.leavers.map((leaver) => initialState(leaver, at)),
    stepBatches: stepBatches.map(([batchId, action, queued]) => ({ batchId, label: `${action} step`, queued, rows: action === 'deactivate' ? accepted.map((leaver) => leaver.deactivateRow) : [] })),
    endedAtOnce,
    steps: accepted.map((leaver) => ({ workflowId: id, row: leaver.row, step: 'deactivate', dueAt: leaver.leaveAt })),
    beforeRows: () => context.store.markLeaving(accepted.flatMap((leaver) => (leaver.userId === undefined ? [] : [{ userId: leaver.userId, owner: leavingOwner(id, leaver.row) }]))),
  });
  return submitted;
}

function initialState(leaver: PlannedLeaver, at: Date): LeaverState {
  const row: PlannedRow = leaver.deactivateRow;
  return {
    row: leaver.row,
    line: leaver.line,
    email: leaver.email,
    ...(leaver.userId === undefined ? {} : { userId: leaver.userId }),
    leaveAt: leaver.leaveAt,
    ...(leaver.transferTo === undefined ? {} : { transferTo: leaver.transferTo }),
    // As the plan read them: the deactivate step keeps it when it was due then (capture-state-before.ts).
    ...(leaver.stateBefore === undefined || leaver.verdict === 'refused' ? {} : { stateBefore: leaver.stateBefore }),
    phase: leaver.verdict === 'refused' ? 'refused' : 'scheduled',
    version: 0,
    ...(leaver.reason === undefined ? {} : { reason: leaver.reason }),
    ...(leaver.rule === undefined ? {} : { rule: leaver.rule }),
    notes: leaver.notes,
    steps: [stepOf('plan', leaver.verdict, at, leaver.reason ?? (row.verdict === 'no-op' ? 'already deactivated' : undefined))],
  };
}
