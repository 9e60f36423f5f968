import { DelayedError } from 'bullmq';
import { isApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { USER_STATUSES, type UserStatus } from '../contract/enums.js';
import type { PlannedRow } from '../plan/planned-row.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import type { Lifecycle, RowWait, StepRun } from '../workflow/lifecycle.js';
import { planReadingStands } from '../plan/plan-reading-stands.js';
import { personStepOf } from '../workflow/workflow-shapes.js';
import { endPerson, type StepBatchRef, type StepEnd } from '../workflow/person-ends.js';
import { createPersonStore } from '../workflow/person-store.js';
import { createRecordStore } from '../workflow/record-store.js';
import { DONE_OUTCOMES, rowOutcomeOf } from '../workflow/step-rows.js';
import type { StepJobData } from '../workflow/step-job.js';
import type { EngineContext } from '../workflow/workflow-context.js';
import { settledMove, unconfirmedAndGone, unconfirmedNote, waitOnUnconfirmed } from '../workflow/unconfirmed-row.js';
import { hrRecordSchema, JOINER_OPEN, joinerStateSchema, type HrRecord, type JoinerState } from './hr-workflow-state.js';
import { createPlanSeatReads } from './plan-seat-reads.js';
import { judgeSeatChange, seatChangeFor, type SeatChange } from './seat-change.js';
import { forgetUserAtPlan, standingUserAtPlan } from './user-at-plan.js';
import { leftOrganization, userByEmail } from '../workflow/user-in-organization.js';

export const JOINERS = 'joiners';
/** The one step of a joiner: on the start date, into the organization with the policy's seat. */
export const JOIN_STEP = 'join';

/** The step batches of a joiners workflow, as reports name them. */
export function joinerBatches(workflow: HrRecord): (StepBatchRef & { name: string })[] {
  return [
    ...(workflow.addBatch === undefined ? [] : [{ name: 'add', batchId: workflow.addBatch, action: 'add' }]),
    ...(workflow.reactivateBatch === undefined ? [] : [{ name: 'reactivate', batchId: workflow.reactivateBatch, action: 'reactivate' }]),
    { name: 'seat', batchId: workflow.seatBatch, action: 'seat' },
  ];
}

/**
 * Joiners as a lifecycle of the engine: on the start date the step reads the user again and does what the organization
 * needs then — add (the service allocates a seat: docs/service.md#add-user), reactivate a deactivated member (a rehire
 * within the reactivation window), or nothing for a member already — then gives the seat the policy assigns (an
 * upgrade or downgrade row). Each change is a row of a step batch run by the existing job types. Undo until the step
 * runs (cancel-pending.ts).
 */
export function createJoinerLifecycle(engine: EngineContext): Lifecycle<HrRecord, JoinerState> {
  const records = createRecordStore(engine.redis, engine.keys, hrRecordSchema, JOINERS);
  const persons = createPersonStore(engine.redis, engine.keys, joinerStateSchema, engine.replicated);
  // The seat steps that run close together read their users' seats in one call (plan-seat-reads.ts).
  const seatReads = createPlanSeatReads();
  const lifecycle: Lifecycle<HrRecord, JoinerState> = {
    name: JOINERS,
    steps: [JOIN_STEP],
    records,
    persons,
    openPhases: JOINER_OPEN,
    runStep,
    gaveUp,
    changedElsewhere: (workflow, person, change) => forgetUserAtPlan(persons, workflow, person, change),
  };
  const now = () => new Date(engine.clock.now());
  const batch = (workflow: HrRecord, name: string) => joinerBatches(workflow).find((each) => each.name === name);
  const end = (workflow: HrRecord, person: JoinerState, ends: Record<string, StepEnd>) =>
    endPerson(engine, lifecycle, workflow, person, Object.entries(ends).flatMap(([name, stepEnd]) => {
      const ref = batch(workflow, name);
      return ref === undefined ? [] : [{ batch: ref, end: stepEnd }];
    }));
  /**
   * Moves the person from `from` to the phase `change` gives; undefined when another writer moved them first. A note of
   * a row that was unconfirmed goes as the step goes on: its outcome is known now.
   */
  const move = (workflow: HrRecord, row: number, from: JoinerState['phase'], change: (current: JoinerState) => JoinerState) =>
    persons.update(workflow.id, row, (current) => (current.phase === from ? settledMove(current, change(current)) : undefined));

  async function runStep(run: StepRun<HrRecord, JoinerState>): Promise<string> {
    const { workflow, api, signal } = run;
    const { dueAt } = run.data;
    let person: JoinerState | undefined = run.person;
    if (!JOINER_OPEN.has(person.phase)) {
      // The step batches' ends follow from the closed joiner, written again: the run that closed them may have died
      // before it wrote them (soak seed 6602: a rehire's reactivation refused, the worker killed after the phase,
      // and the seat batch waited for good). A row that has its outcome keeps it.
      await end(workflow, person, closedEnds(person));
      return person.phase;
    }
    try {
      if (person.phase === 'scheduled') person = (await begin(workflow, person, api, dueAt, signal)) ?? (await persons.get(workflow.id, person.row));
      if (person?.phase === 'adding' || person?.phase === 'reactivating') person = (await arrive(workflow, person, dueAt, run, api, signal)) ?? (await persons.get(workflow.id, person.row));
      if (person?.phase === 'seating') person = (await seat(workflow, person, api, dueAt, run, signal)) ?? (await persons.get(workflow.id, person.row));
      return person?.phase ?? 'missing';
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      // A refusal that repeating cannot change ends the joiner; anything passing (5xx, network, Redis) is retried.
      if (isApiError(error) && !error.retryable && error.category !== 'Authorization') {
        const failed = await persons.update(workflow.id, run.data.row, (current) =>
          JOINER_OPEN.has(current.phase) ? { ...current, phase: 'failed', reason: error.message, steps: [...current.steps, personStepOf(JOIN_STEP, 'failed', now(), error.message)] } : undefined,
        );
        if (failed !== undefined) await end(workflow, failed, { ...everyStep({ outcome: 'failed', message: error.message, extra: { category: error.category } }), ...routeEnds(failed) });
        return 'failed';
      }
      throw error;
    }
  }

  /**
   * The start date: what does the organization need now? The plan's listing tells it when it still stands (due when
   * the plan read it, run within 15 minutes of that: user-at-plan.ts); else the address is looked up now. An add on a
   * reading overtaken meanwhile is refused by the service (already a member) and ends the joiner failed, as before.
   */
  async function begin(workflow: HrRecord, person: JoinerState, api: SmartsheetApi, dueAt: number, signal?: AbortSignal): Promise<JoinerState | undefined> {
    const found = foundAtPlan(person, Math.max(person.dueAt, dueAt)) ?? (await lookUp(api, person.email, signal));
    const { user } = found;
    const as = found.readAt === undefined ? '' : ` (as the sync's plan read it at ${found.readAt})`;
    const at = now();
    if (user === undefined) {
      return move(workflow, person.row, 'scheduled', (current) => ({ ...current, phase: 'adding', how: 'add', steps: [...current.steps, personStepOf('recheck', 'add', at, `not in the organization${as}: adding`)] }));
    }
    if (user.status === 'DEACTIVATED') {
      await engine.batches.saveRows(requireBatch(workflow.reactivateBatch, 'reactivate'), [reactivateRow(person, user.id)]);
      const moved = await move(workflow, person.row, 'scheduled', (current) => ({ ...current, phase: 'reactivating', how: 'reactivate', userId: user.id, steps: [...current.steps, personStepOf('recheck', 'reactivate', at, `a deactivated member (a rehire)${as}: reactivating`)] }));
      if (moved !== undefined) await end(workflow, moved, routeEnds(moved));
      return moved;
    }
    const moved = await move(workflow, person.row, 'scheduled', (current) => ({ ...current, phase: 'seating', how: 'member', userId: user.id, steps: [...current.steps, personStepOf('recheck', 'member', at, `already in the organization (${user.status ?? 'status hidden'})`)] }));
    if (moved !== undefined) await end(workflow, moved, routeEnds(moved));
    return moved;
  }

  /** The joiner's user as the plan's listing found them, when that still stands for the step due at `dueAt`. */
  function foundAtPlan(person: JoinerState, dueAt: number): Found | undefined {
    const reading = standingUserAtPlan(person, dueAt, engine.clock.now());
    if (reading === undefined) return undefined;
    if (reading.found === 'absent') return { user: undefined, readAt: reading.recordedAt };
    if (reading.status === 'DEACTIVATED' && person.userId !== undefined) return { user: { id: person.userId, status: 'DEACTIVATED' }, readAt: reading.recordedAt };
    return undefined;
  }

  /** The add or reactivate row ran (or runs now): into the organization, or failed. */
  async function arrive(workflow: HrRecord, person: JoinerState, dueAt: number, wait: RowWait, api: SmartsheetApi, signal?: AbortSignal): Promise<JoinerState | undefined> {
    const adding = person.phase === 'adding';
    const batchId = requireBatch(adding ? workflow.addBatch : workflow.reactivateBatch, adding ? 'add' : 'reactivate');
    // The row again, from the joiner's state alone: a failover that kept the phase may have dropped the row saved
    // beside it (soak seed 3402: a rehire's reactivate row, saved when the route was chosen, was gone, and the step
    // could never run it).
    const planned = adding ? addRow(person, workflow.sendEmail ?? false) : person.userId === undefined ? undefined : reactivateRow(person, person.userId);
    const outcome = await rowOutcomeOf(engine, { batchId, row: person.row, dueAt, ...(planned === undefined ? {} : { planned }) }, wait);
    if (outcome.outcome === 'unknown') {
      // A reactivation only the user's removal made unconfirmable (soak seed 6643: the confirming read answered 404
      // after a later offboarding removed them) has nothing left to settle: no retry could reactivate or seat them.
      const change = adding ? 'add' : 'reactivation';
      if (!adding && (await leftOrganization(api, person, signal))) return leftMeanwhile(workflow, person, 'reactivate', change, outcome);
      return waitOnUnconfirmed(persons, workflow.id, person, unconfirmedNote(change, batchId), wait);
    }
    const at = new Date(outcome.finishedAt);
    if (!DONE_OUTCOMES.has(outcome.outcome)) {
      const reason = `${adding ? 'add' : 'reactivation'} ${outcome.outcome}: ${outcome.message ?? ''}`.trim();
      const failed = await move(workflow, person.row, person.phase, (current) => ({ ...current, phase: 'failed', reason, steps: [...current.steps, personStepOf(adding ? 'add' : 'reactivate', outcome.outcome, at, outcome.message)] }));
      if (failed !== undefined) await end(workflow, failed, closedEnds(failed));
      return failed;
    }
    // The add job reports the new user's id in its detail; a confirmed add (after an unknown answer) does not.
    const detailId = outcome.detail?.userId;
    const userId = outcome.userId ?? (typeof detailId === 'number' ? detailId : undefined) ?? person.userId;
    const moved = await move(workflow, person.row, person.phase, (current) => ({
      ...current,
      phase: 'seating',
      ...(userId === undefined ? {} : { userId }),
      steps: [...current.steps, personStepOf(adding ? 'add' : 'reactivate', outcome.outcome, at, seatNote(outcome))],
    }));
    if (moved !== undefined) await end(workflow, moved, routeEnds(moved));
    return moved;
  }

  /**
   * The step's row ended `unknown` and the user has left the organization since: the joiner ends `skipped`. The row
   * keeps its `unknown` (the change may have landed before they left); the seat batch ends with nothing to give.
   */
  async function leftMeanwhile(workflow: HrRecord, person: JoinerState, step: 'reactivate' | 'seat', change: string, outcome: RowOutcome): Promise<JoinerState | undefined> {
    const reason = unconfirmedAndGone(change, person.email);
    const skipped = await move(workflow, person.row, person.phase, (current) => ({ ...current, phase: 'skipped', reason, steps: [...current.steps, personStepOf(step, outcome.outcome, new Date(outcome.finishedAt), outcome.message)] }));
    if (skipped !== undefined) await end(workflow, skipped, closedEnds(skipped));
    return skipped;
  }

  /** In the organization: the seat the policy gives, by an upgrade or downgrade row when the seat held differs. */
  async function seat(workflow: HrRecord, person: JoinerState, api: SmartsheetApi, dueAt: number, wait: RowWait, signal?: AbortSignal): Promise<JoinerState | undefined> {
    const outcome = await engine.batches.getOutcome(workflow.seatBatch, person.row);
    if (outcome === undefined && (await engine.batches.getRow(workflow.seatBatch, person.row)) === undefined) {
      const userId = person.userId ?? (await userByEmail(api, person.email, signal))?.id;
      if (userId === undefined) throw new Error(`joiner ${person.email} (row ${person.row}) is not in the organization after joining`);
      if (person.userId === undefined) await persons.update(workflow.id, person.row, (current) => ({ ...current, userId }));
      const change = await seatChangeOf(workflow, { ...person, userId }, api, dueAt, signal);
      if (change.kind !== 'row') {
        const message = change.kind === 'same' ? `holds ${change.seat}, the seat the policy gives (${person.seatRule})` : `seat not changed: ${change.reason}`;
        const joined = await move(workflow, person.row, 'seating', (current) => ({ ...current, phase: 'joined', ...(change.kind === 'skip' ? { notes: [...current.notes, message] } : {}), steps: [...current.steps, personStepOf('seat', change.kind === 'same' ? 'unchanged' : 'skipped', now(), message)] }));
        if (joined !== undefined) await end(workflow, joined, closedEnds(joined));
        return joined;
      }
      await engine.batches.saveRows(workflow.seatBatch, [change.row]);
      await persons.update(workflow.id, person.row, (current) => ({ ...current, steps: [...current.steps, personStepOf('seat', 'queued', now(), `${change.row.actionName} ${change.from ?? '?'} → ${change.to} (${person.seatRule})`)] }));
    }
    const done = outcome ?? (await rowOutcomeOf(engine, { batchId: workflow.seatBatch, row: person.row, dueAt }, wait));
    if (done.outcome === 'unknown') {
      if (await leftOrganization(api, person, signal)) return leftMeanwhile(workflow, person, 'seat', 'seat change', done);
      return waitOnUnconfirmed(persons, workflow.id, person, unconfirmedNote('seat change', workflow.seatBatch), wait);
    }
    const joined = DONE_OUTCOMES.has(done.outcome);
    const ended = await move(workflow, person.row, 'seating', (current) => ({
      ...current,
      phase: joined ? 'joined' : 'failed',
      ...(joined ? {} : { reason: `seat change ${done.outcome}: ${done.message ?? ''}`.trim() }),
      steps: [...current.steps, personStepOf('seat', done.outcome, new Date(done.finishedAt), done.message)],
    }));
    if (ended !== undefined) await end(workflow, ended, routeEnds(ended));
    return ended;
  }

  /**
   * What giving the policy's seat takes, judged on the user as the plan-scoped listing of the policy's plan lists them
   * now, read together with the other seat steps that run close together (one call for up to 100: plan-seat-reads.ts)
   * after the add, reactivation or look-up that brought the person here. A user the listing does not show under their
   * id (no seat in the plan, or anything unexpected), or a policy without a planId, is read on its own as before.
   */
  async function seatChangeOf(workflow: HrRecord, person: JoinerState & { userId: number }, api: SmartsheetApi, dueAt: number, signal?: AbortSignal): Promise<SeatChange> {
    const { planId } = workflow;
    if (planId !== undefined) {
      const readAt = new Date(engine.clock.now()).toISOString();
      const listed = await seatReads.read({ key: workflow.id, planId, email: person.email, api });
      if (listed?.id === person.userId) {
        const seat = { planId, ...(listed.seatType === undefined ? {} : { seatType: listed.seatType }), ...(listed.isInternal === undefined ? {} : { isInternal: listed.isInternal }) };
        return judgeSeatChange(person, planId, person.seat, { status: listed.status, admin: listed.admin, plans: [seat], readAt });
      }
    }
    return seatChangeFor(api, person, planId, person.seat, () => engine.clock.now(), signal, await addAnswer(workflow, person, dueAt));
  }

  /**
   * The status and admin flag the add answered (its row's detail), while that answer stands as a reading for the seat
   * step (plan-reading-stands.ts: the step runs within 15 minutes of its due instant, before which the add cannot have
   * run): a seat change the plan's listing could not judge then reads the user's plans only. Undefined for a reactivation, a member, a confirmed add (no
   * answer) or an answer that may be older: the profile is read again.
   */
  async function addAnswer(workflow: HrRecord, person: JoinerState, dueAt: number): Promise<{ status: UserStatus; admin: boolean } | undefined> {
    if (person.how !== 'add' || workflow.addBatch === undefined) return undefined;
    const added = await engine.batches.getOutcome(workflow.addBatch, person.row);
    const detail = added?.detail as { status?: unknown; admin?: unknown } | undefined;
    if (added?.outcome !== 'succeeded' || typeof detail?.admin !== 'boolean' || !USER_STATUSES.some((status) => status === detail.status)) return undefined;
    // The add's row never runs before its due instant on the service clock, so its answer is no older than that (the
    // row's finishedAt is on the rows' clock, which need not be the service's).
    const notBefore = Math.min(person.dueAt, dueAt);
    if (!planReadingStands(notBefore, notBefore, engine.clock.now())) return undefined;
    return { status: detail.status as UserStatus, admin: detail.admin };
  }

  async function gaveUp(data: StepJobData, reason: string): Promise<void> {
    const workflow = await records.get(data.workflowId);
    if (workflow === undefined) return;
    const failed = await persons.update(data.workflowId, data.row, (current) =>
      current.phase === 'scheduled' || current.phase === 'seating' ? { ...current, phase: 'failed', reason, steps: [...current.steps, personStepOf(JOIN_STEP, 'failed', now(), reason)] } : undefined,
    );
    if (failed !== undefined) await end(workflow, failed, { ...everyStep({ outcome: 'failed', message: reason }), ...routeEnds(failed) });
  }

  return lifecycle;
}

const notNeeded: StepEnd = { outcome: 'skipped', message: 'added: nothing to reactivate' };

/**
 * The step batches the joiner's route (add, reactivate, or a member already) leaves unused, and why. Recorded when the
 * route is taken, and again as the joiner ends: a Redis failover between the phase's write and these (or a worker
 * killed between them) would otherwise leave those batches unfinished for good.
 */
function routeEnds(person: JoinerState): Record<string, StepEnd> {
  switch (person.how) {
    case 'reactivate':
      return { add: { outcome: 'skipped', message: 'a deactivated member: reactivated instead of added' } };
    case 'member':
      return { add: { outcome: 'unchanged', message: 'already in the organization' }, reactivate: { outcome: 'skipped', message: 'not deactivated: nothing to reactivate' } };
    case 'add':
      return person.phase === 'adding' ? {} : { reactivate: notNeeded };
    default:
      return {};
  }
}

/**
 * The step batches' ends that follow from a closed joiner, from what their record says last: the join step failed
 * (every batch failed, as the step ended them), the add or reactivation failed (no seat to give), or the seat was held
 * already or not changed (the seat step's words). A batch whose row ran keeps its outcome (endPerson).
 */
function closedEnds(person: JoinerState): Record<string, StepEnd> {
  const last = person.steps.at(-1);
  if (person.phase === 'failed' && last?.step === JOIN_STEP) return { ...everyStep({ outcome: 'failed', message: person.reason ?? last.message ?? 'failed' }), ...routeEnds(person) };
  // The add or reactivation failed, or was unconfirmed and the user left since (`skipped`): no seat to give.
  if (person.phase === 'failed' || (person.phase === 'skipped' && (last?.step === 'add' || last?.step === 'reactivate'))) {
    return { ...routeEnds(person), seat: { outcome: 'skipped', message: 'not in the organization: no seat to give' } };
  }
  if (last?.step === 'seat' && (last.outcome === 'unchanged' || last.outcome === 'skipped')) return { ...routeEnds(person), seat: { outcome: last.outcome, message: last.message ?? '' } };
  return routeEnds(person);
}

function everyStep(end: StepEnd): Record<string, StepEnd> {
  return { add: end, reactivate: end, seat: end };
}

function requireBatch(batchId: string | undefined, step: string): string {
  if (batchId === undefined) throw new Error(`the joiners workflow has no ${step} step batch`);
  return batchId;
}

/** The joiner's user at the start date: none (not in the organization) or its id and status; `readAt` when the plan's. */
interface Found {
  user: { id: number; status?: UserStatus | undefined } | undefined;
  readAt?: string;
}

/** The joiner's address looked up now (`email=`): a member, or none. */
async function lookUp(api: SmartsheetApi, email: string, signal?: AbortSignal): Promise<Found> {
  const user = await userByEmail(api, email, signal);
  return { user: user === undefined ? undefined : { id: user.id, status: user.status } };
}

/** What the add cost, as the service answered it (docs/service.md#add-user): the seat and until when it is provisional. */
function seatNote(outcome: RowOutcome): string | undefined {
  const detail = outcome.detail as { seatType?: string; provisionalUntil?: string } | undefined;
  if (detail?.seatType === undefined) return outcome.message;
  return `holds ${detail.seatType}${detail.provisionalUntil === undefined ? '' : ` until ${detail.provisionalUntil}`}${outcome.message === undefined ? '' : `; ${outcome.message}`}`;
}

/** The reactivate row of a rehire, as the existing reactivate job type takes it. */
function reactivateRow(person: JoinerState, userId: number): PlannedRow {
  return { row: person.row, line: person.line, action: { action: 'reactivate', user: { email: person.email } }, actionName: 'reactivate', verdict: 'change', target: { userId, email: person.email } };
}

/** The add row of a joiner, as the existing add job type takes it (saved when the joiners workflow is submitted). */
export function addRow(person: Pick<JoinerState, 'row' | 'line' | 'email' | 'firstName' | 'lastName'>, sendEmail: boolean): PlannedRow {
  return {
    row: person.row,
    line: person.line,
    action: { action: 'add', user: { email: person.email }, ...(person.firstName === undefined ? {} : { firstName: person.firstName }), ...(person.lastName === undefined ? {} : { lastName: person.lastName }), ...(sendEmail ? { sendEmail } : {}) },
    actionName: 'add',
    verdict: 'change',
    target: { email: person.email },
  };
}
