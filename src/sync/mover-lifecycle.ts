import { DelayedError } from 'bullmq';
import { isApiError, ResourceNotFoundError } from '../client/api-error.js';
import type { Lifecycle, StepRun } from '../workflow/lifecycle.js';
import { personStepOf } from '../workflow/workflow-shapes.js';
import { endPerson, type StepBatchRef, type StepEnd } from '../workflow/person-ends.js';
import { createPersonStore } from '../workflow/person-store.js';
import { createRecordStore } from '../workflow/record-store.js';
import { OUTCOMES } from '../queue/row-outcome.js';
import { DONE_OUTCOMES, rowOutcomeOf } from '../workflow/step-rows.js';
import type { StepJobData } from '../workflow/step-job.js';
import type { EngineContext } from '../workflow/workflow-context.js';
import { settledNotes, unconfirmedAndGone, unconfirmedNote, waitOnUnconfirmed } from '../workflow/unconfirmed-row.js';
import { hrRecordSchema, MOVER_OPEN, moverStateSchema, type HrRecord, type MoverState } from './hr-workflow-state.js';
import { judgeSeatChange, seatChangeFor } from './seat-change.js';
import { forgetUserAtPlan, standingUserAtPlan } from './user-at-plan.js';
import { leftOrganization } from '../workflow/user-in-organization.js';

export const MOVERS = 'movers';
/** The one step of a mover: on the effective date, the seat the policy gives for the new department/title/location. */
export const MOVE_STEP = 'move';

export function moverBatches(workflow: HrRecord): (StepBatchRef & { name: string })[] {
  return [{ name: 'seat', batchId: workflow.seatBatch, action: 'seat' }];
}

/**
 * Movers as a lifecycle of the engine: on the effective date the step reads the user's seat and status again (or,
 * due when the sync's plan read them and run within 15 minutes of that reading, takes the plan's: user-at-plan.ts) and,
 * when the seat the policy gives for the new department, title or location differs, upgrades or downgrades it (a row
 * of the seat step batch, run by the existing job types: a downgrade's confirm and the service's own refusals stand). A user who left or was deactivated meanwhile is skipped. Undo until
 * the step runs (cancel-pending.ts).
 */
export function createMoverLifecycle(engine: EngineContext): Lifecycle<HrRecord, MoverState> {
  const records = createRecordStore(engine.redis, engine.keys, hrRecordSchema, MOVERS);
  const persons = createPersonStore(engine.redis, engine.keys, moverStateSchema, engine.replicated);
  const lifecycle: Lifecycle<HrRecord, MoverState> = {
    name: MOVERS,
    steps: [MOVE_STEP],
    records,
    persons,
    openPhases: MOVER_OPEN,
    runStep,
    gaveUp,
    changedElsewhere: (workflow, person, change) => forgetUserAtPlan(persons, workflow, person, change),
  };
  const now = () => new Date(engine.clock.now());
  const end = (workflow: HrRecord, person: MoverState, stepEnd: StepEnd) => endPerson(engine, lifecycle, workflow, person, moverBatches(workflow).map((batch) => ({ batch, end: stepEnd })));
  const endAs = async (workflow: HrRecord, row: number, from: MoverState['phase'], phase: 'moved' | 'skipped' | 'failed', stepEnd: StepEnd) => {
    const ended = await persons.update(workflow.id, row, (current) =>
      current.phase === from ? { ...current, phase, notes: settledNotes(current.notes), ...(phase === 'moved' ? {} : { reason: stepEnd.message }), steps: [...current.steps, personStepOf(MOVE_STEP, stepEnd.outcome, now(), stepEnd.message)] } : undefined,
    );
    if (ended !== undefined) await end(workflow, ended, stepEnd);
    return ended?.phase ?? phase;
  };

  async function runStep(run: StepRun<HrRecord, MoverState>): Promise<string> {
    const { workflow, person, api, signal } = run;
    if (!MOVER_OPEN.has(person.phase)) {
      // Ended by the step itself (not by its seat row): the seat batch's end follows from the step's last words, written
      // again, since the run that ended the mover may have died before it wrote it (as a joiner's did, soak seed 6602).
      const last = person.steps.at(-1);
      const stepEnd = last?.step === MOVE_STEP ? OUTCOMES.find((outcome) => outcome === last.outcome) : undefined;
      if (stepEnd !== undefined) await end(workflow, person, { outcome: stepEnd, message: last?.message ?? '' });
      else if (workflow.state === 'open') await persons.close(workflow, person.row, MOVER_OPEN);
      return person.phase;
    }
    try {
      // Moving, yet the seat batch has neither the row nor its end: a failover kept the phase and dropped the row saved
      // just before it. The row came from a live read, so the seat is judged again, as when the step first ran.
      const rowLost = person.phase === 'moving' && (await engine.batches.getRow(workflow.seatBatch, person.row)) === undefined && !(await engine.batches.hasOutcome(workflow.seatBatch, person.row));
      if (person.phase === 'scheduled' || rowLost) {
        if (person.userId === undefined) return endAs(workflow, person.row, person.phase, 'failed', { outcome: 'failed', message: 'the mover was never resolved to a user' });
        const subject = { ...person, userId: person.userId };
        const reading = standingUserAtPlan(person, Math.max(person.dueAt, run.data.dueAt), engine.clock.now());
        let change;
        try {
          change =
            reading !== undefined && reading.planId !== undefined && reading.planId === workflow.planId
              ? judgeSeatChange(subject, workflow.planId, person.seat, { status: reading.status, admin: reading.admin, plans: [{ planId: reading.planId, seatType: reading.seatType, isInternal: reading.isInternal }], readAt: reading.recordedAt })
              : await seatChangeFor(api, subject, workflow.planId, person.seat, () => engine.clock.now(), signal);
        } catch (error) {
          if (!(error instanceof ResourceNotFoundError)) throw error;
          return endAs(workflow, person.row, person.phase, 'skipped', { outcome: 'skipped', message: 'no longer a user of the organization' });
        }
        if (change.kind === 'same') return endAs(workflow, person.row, person.phase, 'moved', { outcome: 'unchanged', message: `holds ${change.seat} already (${person.seatRule})` });
        if (change.kind === 'skip') return endAs(workflow, person.row, person.phase, 'skipped', { outcome: 'skipped', message: `seat not changed: ${change.reason}` });
        await engine.batches.saveRows(workflow.seatBatch, [change.row]);
        const moving = rowLost ? person : await persons.update(workflow.id, person.row, (current) =>
          current.phase === 'scheduled'
            ? { ...current, phase: 'moving', steps: [...current.steps, personStepOf(MOVE_STEP, 'queued', now(), `${change.row.actionName} ${change.from ?? '?'} → ${change.to} (${person.seatRule})`)] }
            : undefined,
        );
        if (moving === undefined) {
          // Another run of this step moved the person first (two ran at once: a lock lost in a Redis restart). It may
          // have died before queueing the row, so this run queues it too (a queued row is not queued twice).
          const current = await persons.get(workflow.id, person.row);
          if (current?.phase !== 'moving') return current?.phase ?? 'missing';
        }
      }
      const outcome = await rowOutcomeOf(engine, { batchId: workflow.seatBatch, row: person.row, dueAt: run.data.dueAt }, run);
      if (outcome.outcome === 'unknown') {
        // Unconfirmable because the user left meanwhile: nothing a retry could settle (as a joiner's, soak seed 6643).
        if (await leftOrganization(api, person, signal)) {
          return endAs(workflow, person.row, 'moving', 'skipped', { outcome: 'skipped', message: unconfirmedAndGone('seat change', person.email) });
        }
        return waitOnUnconfirmed(persons, workflow.id, person, unconfirmedNote('seat change', workflow.seatBatch), run);
      }
      const moved = DONE_OUTCOMES.has(outcome.outcome);
      const ended = await persons.update(workflow.id, person.row, (current) =>
        current.phase === 'moving'
          ? { ...current, phase: moved ? 'moved' : 'failed', notes: settledNotes(current.notes), ...(moved ? {} : { reason: `seat change ${outcome.outcome}: ${outcome.message ?? ''}`.trim() }), steps: [...current.steps, personStepOf('seat', outcome.outcome, new Date(outcome.finishedAt), outcome.message)] }
          : undefined,
      );
      if (ended !== undefined) await persons.close(workflow, ended.row, MOVER_OPEN);
      return ended?.phase ?? (await persons.get(workflow.id, person.row))?.phase ?? 'missing';
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      if (isApiError(error) && !error.retryable && error.category !== 'Authorization') {
        return endAs(workflow, person.row, person.phase, 'failed', { outcome: 'failed', message: error.message, extra: { category: error.category } });
      }
      throw error;
    }
  }

  async function gaveUp(data: StepJobData, reason: string): Promise<void> {
    const workflow = await records.get(data.workflowId);
    if (workflow !== undefined) await endAs(workflow, data.row, 'scheduled', 'failed', { outcome: 'failed', message: reason });
  }

  return lifecycle;
}
