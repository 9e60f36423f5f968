import type { PlannedRow } from '../plan/planned-row.js';
import { replicatedSubmission } from '../queue/redis/replicated-submission.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { Lifecycle } from './lifecycle.js';
import type { PersonBase, WorkflowBase } from './workflow-shapes.js';
import { stepJobOptions, type StepJobData } from './step-job.js';
import type { EngineContext } from './workflow-context.js';

/** One step batch of a workflow being submitted: created in the batch store with the rows known now. */
export interface SubmittedStepBatch {
  batchId: string;
  /** What the batch is for people, e.g. `add step`. */
  label: string;
  /** Rows saved now (the steps queue them when due); others are saved by their step. */
  rows: readonly PlannedRow[];
  /** How many of its rows are expected to run (the batch's `queued`). */
  queued: number;
}

export interface WorkflowSubmission<R extends WorkflowBase, P extends PersonBase> {
  lifecycle: Lifecycle<R, P>;
  /** The record; `tracksOpen` should be true (closing a person is then one command). */
  record: Omit<R, 'state' | 'lifecycle'>;
  /** Every person, in their first phase (refused ones in an end phase). */
  persons: readonly P[];
  stepBatches: readonly SubmittedStepBatch[];
  /** Outcomes known at once (a person refused at plan time, in every step batch). */
  endedAtOnce: readonly RowOutcome[];
  /** The first step of each person with a step to come, due on the service clock. */
  steps: readonly StepJobData[];
  /** What the lifecycle records besides, once the people are saved and before their rows and steps are (e.g. the leaving register). */
  beforeRows?: () => Promise<void>;
}

export interface SubmittedWorkflow<R> {
  workflow: R;
  /** False when a workflow of this id had been submitted before: nothing was queued again. */
  created: boolean;
}

/**
 * Queues a workflow of any lifecycle: the record, its step batches in the ordinary batch store, the people's states,
 * and one delayed step job per person with a step to come. Safe to repeat after a crash (every write is keyed by the
 * workflow's id); a workflow submitted before is returned as it is. Made again until a replica holds it (a failover
 * would otherwise drop a workflow its operator was told is queued); the first attempt's answer is kept.
 */
export async function submitWorkflow<R extends WorkflowBase, P extends PersonBase>(context: EngineContext, submission: WorkflowSubmission<R, P>): Promise<SubmittedWorkflow<R>> {
  return replicatedSubmission({
    writes: context.replicated,
    // The record, the people and the step index share one slot (queue-keys.ts).
    routeKey: context.keys.workflow(submission.record.id),
    submit: () => submitOnce(context, submission),
    madeByThisCall: (answer) => answer.workflow.createdAt === submission.record.createdAt,
  });
}

async function submitOnce<R extends WorkflowBase, P extends PersonBase>(context: EngineContext, submission: WorkflowSubmission<R, P>): Promise<SubmittedWorkflow<R>> {
  const { lifecycle, record } = submission;
  const now = context.clock.now();
  const at = new Date(now);
  const created = await lifecycle.records.create(record, now);
  const existing = await lifecycle.records.get(record.id);
  if (existing === undefined) throw new Error(`${lifecycle.name} workflow ${record.id} vanished while being submitted`);
  if (!created && existing.state !== 'submitting') return { workflow: existing, created: false };

  const total = submission.persons.length;
  for (const batch of submission.stepBatches) {
    await context.batches.create(
      { id: batch.batchId, source: `${record.source} (${lifecycle.name} ${record.id}: ${batch.label})`, sha256: record.sha256, createdAt: at.toISOString(), total, queued: batch.queued, sim: context.sim, target: record.target, queueName: context.rowsQueue.name },
      now,
    );
  }
  await lifecycle.persons.save(record.id, submission.persons);
  await lifecycle.persons.open(record.id, submission.steps.map((step) => step.row));
  await submission.beforeRows?.();
  // Every row of every step batch has a state before any step job exists (row-lifecycle.ts): the rows saved now are
  // their person's first step's, scheduled at its due instant; the others are planned (a later step decides on them).
  const firstDue = new Map<number, number>();
  for (const step of submission.steps) firstDue.set(step.row, Math.min(step.dueAt, firstDue.get(step.row) ?? Infinity));
  const everyone = submission.persons.map((person) => person.row);
  for (const batch of submission.stepBatches) {
    if (batch.rows.length > 0) await context.batches.saveRows(batch.batchId, batch.rows);
    const byDue = new Map<number, number[]>();
    for (const { row } of batch.rows) {
      const dueAt = firstDue.get(row);
      if (dueAt !== undefined) byDue.set(dueAt, [...(byDue.get(dueAt) ?? []), row]);
    }
    for (const [dueAt, rows] of byDue) await context.batches.rowLifecycle.schedule(batch.batchId, rows, dueAt);
    await context.batches.rowLifecycle.plan(batch.batchId, everyone);
  }
  for (const outcome of submission.endedAtOnce) await context.batches.recordOutcome(outcome);
  await context.steps.add(record.id, submission.steps);
  for (let i = 0; i < submission.steps.length; i += 500) {
    await context.stepQueue.addBulk(submission.steps.slice(i, i + 500).map((data) => ({ name: data.step, data, opts: stepJobOptions(data, now) })));
  }
  for (const batch of submission.stepBatches) {
    await context.batches.transition(batch.batchId, ['submitting'], 'queued');
    await context.batches.finishIfComplete(batch.batchId, at);
  }
  await lifecycle.records.setState(record.id, submission.steps.length === 0 ? 'finished' : 'open');
  return { workflow: (await lifecycle.records.get(record.id)) ?? existing, created };
}
