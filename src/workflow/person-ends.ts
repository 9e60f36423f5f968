import type { Outcome, RowOutcome } from '../queue/row-outcome.js';
import type { Lifecycle, PersonBase, WorkflowBase } from './lifecycle.js';
import type { EngineContext } from './workflow-context.js';

/** How a step ends for a person when its row does not run (refused at plan, undone, skipped after a re-check). */
export interface StepEnd {
  outcome: Outcome;
  message: string;
  extra?: Partial<RowOutcome>;
}

/** A step batch of a workflow (the ordinary batch store): one outcome per person, so it finishes with the workflow. */
export interface StepBatchRef {
  batchId: string;
  /** The manifest action its rows are, as reports name it (deactivate, remove, add, upgrade…). */
  action: string;
}

/** The outcome of a step that ends without its row running, in that step's batch. */
export function personOutcome(batchId: string, person: Pick<PersonBase, 'row' | 'line' | 'email' | 'userId'>, action: string, end: StepEnd, sim: boolean, at: Date): RowOutcome {
  return {
    batchId,
    row: person.row,
    line: person.line,
    action,
    outcome: end.outcome,
    email: person.email,
    ...(person.userId === undefined ? {} : { userId: person.userId }),
    message: end.message,
    attempts: 0,
    finishedAt: at.toISOString(),
    sim,
    ...end.extra,
  };
}

/**
 * Records these step ends (a step batch that already has the person's outcome keeps it) and closes the person when
 * their phase is an end: the workflow finishes with its last person.
 */
export async function endPerson<R extends WorkflowBase, P extends PersonBase>(
  context: EngineContext,
  lifecycle: Pick<Lifecycle<R, P>, 'persons' | 'openPhases'>,
  workflow: R,
  person: P,
  ends: readonly { batch: StepBatchRef; end: StepEnd }[],
): Promise<void> {
  const at = new Date(context.clock.now());
  for (const { batch, end } of ends) await context.batches.recordOutcome(personOutcome(batch.batchId, person, batch.action, end, context.sim, at));
  if (!lifecycle.openPhases.has(person.phase)) await lifecycle.persons.close(workflow, person.row, lifecycle.openPhases);
}
