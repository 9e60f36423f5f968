import type { Lifecycle } from './lifecycle.js';
import { personStepOf, type PersonBase, type WorkflowBase } from './workflow-shapes.js';
import { endPerson, type StepBatchRef } from './person-ends.js';
import { changed, inFlight, rowsOfPersons, type PersonRow } from './person-rows.js';
import { stepJobId } from './step-job.js';
import type { EngineContext } from './workflow-context.js';

export interface CancelRequest {
  /** Only these people (e-mails); everyone of the workflow when absent. */
  users?: readonly string[];
  /** Who asked, recorded on each person. */
  by: string;
}

export interface CancelResult {
  email: string;
  row?: number;
  /** undone: nothing will be done for them; already-undone: an earlier undo did it; refused: see message. */
  result: 'undone' | 'already-undone' | 'refused';
  message: string;
}

/** A person's undo, as kept on their state. */
export interface UndoMark {
  undo?: { by: string; at: string; from: string } | undefined;
}

/**
 * Undo until the step runs, for a lifecycle whose people wait in one phase until their step is due (joiners before
 * the start date, movers before the effective date): the step job is removed, the person ends `undone`, and every step
 * batch records `cancelled` for them. Once the step has started it has acted (or is acting) on the service: undo
 * refuses and says so; what it did is undone by a person, or by the next lifecycle (a leaver, a mover).
 */
export async function cancelPending<R extends WorkflowBase, P extends PersonBase & UndoMark>(
  context: EngineContext,
  lifecycle: Lifecycle<R, P>,
  workflow: R,
  request: CancelRequest,
  options: { waitingPhase: string; stepBatches: readonly StepBatchRef[] },
): Promise<CancelResult[]> {
  const people = await lifecycle.persons.all(workflow.id);
  const wanted = request.users?.map((email) => email.trim().toLowerCase());
  const results: CancelResult[] = [];
  for (const email of wanted ?? []) {
    if (!people.some((person) => person.email === email)) results.push({ email, result: 'refused', message: `${email} is not in ${lifecycle.name} ${workflow.id}` });
  }
  const targets = people.filter((person) => (wanted === undefined ? person.phase !== 'refused' : wanted.includes(person.email)));
  const rowsOf = await rowsOfPersons(context.batches, options.stepBatches, targets.map((person) => person.row));
  for (const person of targets) {
    const at = new Date(context.clock.now());
    // What the rows say happened, not what the phase intends: a change being made or already made is never "nothing
    // was done"; undo says what it was and what remains.
    const acted = (rowsOf.get(person.row) ?? []).filter((row) => inFlight(row) || changed(row));
    if (acted.length > 0) {
      results.push({ email: person.email, row: person.row, result: 'refused', message: `refused: ${acted.map(describeAct).join('; ')}; undo cannot take that back` });
      continue;
    }
    const undone = await lifecycle.persons.update(workflow.id, person.row, (current) =>
      current.phase !== options.waitingPhase
        ? undefined
        : { ...current, phase: 'undone', undo: { by: request.by, at: at.toISOString(), from: current.phase }, steps: [...current.steps, personStepOf('undo', 'done', at, `by ${request.by}`)] },
    );
    const base = { email: person.email, row: person.row };
    if (undone === undefined) {
      const current = (await lifecycle.persons.get(workflow.id, person.row)) ?? person;
      results.push(
        current.phase === 'undone'
          ? { ...base, result: 'already-undone', message: `already undone by ${current.undo?.by ?? '?'} at ${current.undo?.at ?? '?'}` }
          : { ...base, result: 'refused', message: `refused: ${current.phase}${current.reason === undefined ? '' : ` (${current.reason})`}; its step has started or ended, so undo can no longer stop it` },
      );
      continue;
    }
    for (const step of lifecycle.steps) {
      // A step that is running right now cannot be removed; it reads the phase and does nothing more.
      await context.stepQueue.remove(stepJobId(workflow.id, person.row, step)).catch(() => 0);
      await context.steps.done(workflow.id, person.row, step);
    }
    const end = { outcome: 'cancelled' as const, message: `undone by ${request.by} at ${at.toISOString()}` };
    await endPerson(context, lifecycle, workflow, undone, options.stepBatches.map((batch) => ({ batch, end })));
    results.push({ ...base, result: 'undone', message: 'cancelled before its step ran: nothing was done' });
  }
  return results;
}

/** A row that acted, for people: what it did and what remains. */
function describeAct(row: PersonRow): string {
  if (inFlight(row)) return `its ${row.action} is being made now (its row is ${row.state}): try again once it ended, to see what remains`;
  const detail = row.outcome?.detail as { seatType?: string } | undefined;
  return `its ${row.action} was made at ${row.outcome?.finishedAt ?? '?'}${detail?.seatType === undefined ? '' : ` (${detail.seatType})`} and stays made`;
}
