import type { Outcome, RowOutcome } from '../queue/row-outcome.js';
import type { Lifecycle } from './lifecycle.js';
import type { PersonBase, WorkflowBase } from './workflow-shapes.js';
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
 * Row states from which a step's row may end without running: nothing runs it (planned, scheduled; `none` for rows of
 * workflows submitted before rows had states). A row queued or running will end with what it does.
 */
export const NOT_RUN_STATES = ['planned', 'scheduled', 'none'] as const;

/** A step end that was not recorded because the row is queued or running (or ended otherwise): it ends as it runs. */
export interface UnrecordedEnd {
  batchId: string;
  state: string;
}

/**
 * Records these step ends where the person's row has not run and will not (a step batch that already has the
 * person's outcome keeps it; a row queued or running is left to end as it runs, and returned) and closes the person
 * when their phase is an end: the workflow finishes with its last person.
 */
export async function endPerson<R extends WorkflowBase, P extends PersonBase>(
  context: EngineContext,
  lifecycle: Pick<Lifecycle<R, P>, 'persons' | 'openPhases'>,
  workflow: R,
  person: P,
  ends: readonly { batch: StepBatchRef; end: StepEnd }[],
): Promise<UnrecordedEnd[]> {
  const at = new Date(context.clock.now());
  const unrecorded: UnrecordedEnd[] = [];
  for (const { batch, end } of ends) {
    const result = await context.batches.endRow(personOutcome(batch.batchId, person, batch.action, end, context.sim, at), NOT_RUN_STATES);
    if (result.kind === 'refused') {
      unrecorded.push({ batchId: batch.batchId, state: result.state });
      context.logger.warn({ workflow: workflow.id, batch: batch.batchId, row: person.row, state: result.state, end: end.outcome }, 'a step end was not recorded: the row is running or queued, and ends as it runs');
    }
  }
  if (!lifecycle.openPhases.has(person.phase)) await lifecycle.persons.close(workflow, person.row, lifecycle.openPhases);
  return unrecorded;
}
