import { createHash } from 'node:crypto';
import type { PlannedRow } from '../plan/planned-row.js';
import { leaverOutcome } from './leaver-ends.js';
import { canonicalColumnChoices } from './leavers-column-choices.js';
import { stepOf, type LeaverState } from './leaver-state.js';
import type { OffboardingPlan, PlannedLeaver } from './plan-offboarding.js';
import { stepJobOptions, type StepJobData } from './step-job.js';
import type { WorkflowContext } from './workflow-context.js';
import { leavingOwner, type WorkflowRecord } from './workflow-store.js';

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
  const now = context.clock.now();
  const at = new Date(now);
  const total = plan.leavers.length;
  const accepted = plan.leavers.filter((leaver) => leaver.verdict !== 'refused');
  const record = {
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
    total,
    deactivateBatch: `${id}-deactivate`,
    removeBatch: `${id}-remove`,
    reactivateBatch: `${id}-reactivate`,
    restoreBatch: `${id}-restore`,
    tracksOpen: true,
  };
  const created = await context.store.create(record, now);
  const existing = await context.store.get(id);
  if (existing === undefined) throw new Error(`offboarding ${id} vanished while being submitted`);
  if (!created && existing.state !== 'submitting') return { workflow: existing, created: false };

  const stepBatches = [
    [existing.deactivateBatch, 'deactivate', accepted.filter((l) => l.verdict !== 'already-deactivated').length],
    [existing.removeBatch, 'remove', accepted.length],
    [existing.reactivateBatch, 'reactivate', 0],
    ...(existing.restoreBatch === undefined ? [] : [[existing.restoreBatch, 'restore', 0] as const]),
  ] as const;
  for (const [batchId, action, queued] of stepBatches) {
    await context.batches.create(
      { id: batchId, source: `${plan.source.path} (offboarding ${id}: ${action} step)`, sha256: plan.source.sha256, createdAt: at.toISOString(), total, queued, sim: context.sim, target: options.target, queueName: context.rowsQueue.name },
      now,
    );
  }
  await context.store.saveLeavers(id, plan.leavers.map((leaver) => initialState(leaver, at)));
  await context.store.openLeavers(id, accepted.map((leaver) => leaver.row));
  await context.store.markLeaving(accepted.flatMap((leaver) => (leaver.userId === undefined ? [] : [{ userId: leaver.userId, owner: leavingOwner(id, leaver.row) }])));
  await context.batches.saveRows(existing.deactivateBatch, accepted.map((leaver) => leaver.deactivateRow));
  for (const leaver of plan.leavers) {
    if (leaver.verdict === 'refused') {
      const end = { outcome: 'skipped' as const, message: leaver.reason ?? 'refused at plan time', extra: { category: 'Refused', ...(leaver.rule === undefined ? {} : { rule: leaver.rule }) } };
      for (const [batchId, action] of stepBatches) await context.batches.recordOutcome(leaverOutcome(batchId, leaver, action, end, context.sim, at));
      continue;
    }
    if (leaver.verdict === 'already-deactivated') {
      await context.batches.recordOutcome(leaverOutcome(existing.deactivateBatch, leaver, 'deactivate', { outcome: 'unchanged', message: 'already deactivated before the offboarding' }, context.sim, at));
    }
  }
  const steps: StepJobData[] = accepted.map((leaver) => ({ workflowId: id, row: leaver.row, step: 'deactivate', dueAt: leaver.leaveAt }));
  await context.steps.add(id, steps);
  for (let i = 0; i < steps.length; i += 500) {
    await context.stepQueue.addBulk(steps.slice(i, i + 500).map((data) => ({ name: data.step, data, opts: stepJobOptions(data, now) })));
  }
  for (const [batchId] of stepBatches) {
    await context.batches.transition(batchId, ['submitting'], 'queued');
    await context.batches.finishIfComplete(batchId, at);
  }
  await context.store.setState(id, accepted.length === 0 ? 'finished' : 'open');
  return { workflow: (await context.store.get(id)) ?? existing, created };
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
    phase: leaver.verdict === 'refused' ? 'refused' : 'scheduled',
    version: 0,
    ...(leaver.reason === undefined ? {} : { reason: leaver.reason }),
    ...(leaver.rule === undefined ? {} : { rule: leaver.rule }),
    notes: leaver.notes,
    steps: [stepOf('plan', leaver.verdict, at, leaver.reason ?? (row.verdict === 'no-op' ? 'already deactivated' : undefined))],
  };
}
