import type { RowOutcome } from '../queue/row-outcome.js';
import { stepOf } from '../workflow/leaver-state.js';
import { personStepOf } from '../workflow/workflow-shapes.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import { personOutcome, type StepEnd } from '../workflow/person-ends.js';
import { submitWorkflow } from '../workflow/submit-workflow.js';
import type { AcceptedExports } from './accepted-exports.js';
import type { HrRecord, JoinerState, MoverState } from './hr-workflow-state.js';
import { addRow, createJoinerLifecycle, JOIN_STEP, joinerBatches } from './joiner-lifecycle.js';
import { createMoverLifecycle, MOVE_STEP, moverBatches } from './mover-lifecycle.js';
import type { PlannedJoiner, PlannedMover, SyncPlan } from './sync-plan.js';
import { memberAtPlan } from './user-at-plan.js';

export interface ApplySyncOptions {
  offboarding: OffboardingSystem;
  accepted: AcceptedExports;
  /** The policy's joiners.sendEmail. */
  sendEmail: boolean;
  timeZone: string;
}

/** What applying a plan queued: the workflows (their ids, and whether this run made them), undos and transfer updates. */
export interface AppliedSync {
  joiners?: { workflowId: string; created: boolean };
  movers?: { workflowId: string; created: boolean };
  offboarding?: { workflowId: string; created: boolean };
  /** Per person undone: the result and, when the user had been deactivated, that a reactivation was queued. */
  undos: { email: string; workflowId: string; result: string; reactivating: boolean; message: string }[];
  transfers: { email: string; workflowId: string; result: 'updated' | 'unchanged'; message: string }[];
}

/**
 * Queues a sync plan: undoes the open offboardings of people employed again, points open offboardings at new
 * managers, submits the leavers as an offboarding (the offboarding lifecycle as `seatflow offboard` runs it), the
 * joiners and the movers as workflows of their lifecycles, and then accepts the export (the next one is compared with
 * it). Every workflow's id comes from the run, so a run applied again after a crash queues nothing twice.
 */
export async function applySync(plan: SyncPlan, options: ApplySyncOptions): Promise<AppliedSync> {
  const { offboarding } = options;
  const engine = offboarding.engine.context;
  const by = `seatflow sync ${plan.runId}`;
  const applied: AppliedSync = { undos: [], transfers: [] };

  for (const undo of plan.undos) {
    for (const result of (await offboarding.undo(undo.workflowId, { by, users: [undo.employee.email] })) ?? []) {
      applied.undos.push({ email: result.email, workflowId: undo.workflowId, result: result.result, reactivating: result.reactivating, message: result.message });
    }
  }
  for (const transfer of plan.transfers) {
    const at = new Date(engine.clock.now());
    const updated = await offboarding.store.update(transfer.workflowId, transfer.row, (current) =>
      (current.phase === 'scheduled' || current.phase === 'holding') && current.transferTo?.email !== transfer.to
        ? { ...current, transferTo: { email: transfer.to }, steps: [...current.steps, stepOf('transfer-target', 'changed', at, `manager ${transfer.from ?? '(none)'} → ${transfer.to} (${by}); judged again at the end of the hold`)] }
        : undefined,
    );
    applied.transfers.push({ email: transfer.employee.email, workflowId: transfer.workflowId, result: updated === undefined ? 'unchanged' : 'updated', message: updated === undefined ? 'the removal has started or ended, or already transfers to them' : `the removal transfers to ${transfer.to}` });
  }
  if (plan.leavers !== undefined && plan.leavers.leavers.length > 0) {
    const { workflow, created } = await offboarding.submit(plan.leavers);
    applied.offboarding = { workflowId: workflow.id, created };
  }
  if (plan.joiners.length > 0) applied.joiners = await submitJoiners(plan, options);
  if (plan.movers.length > 0) applied.movers = await submitMovers(plan, options);
  await options.accepted.accept(
    { sha256: plan.export.sha256, exportedAt: plan.export.exportedAt, exportedAtFrom: plan.export.exportedAtFrom, acceptedAt: new Date(engine.clock.now()).toISOString(), employees: plan.export.employees, file: plan.export.path, runId: plan.runId },
    plan.kept,
  );
  return applied;
}

type HrPerson = JoinerState | MoverState;

/** The record every joiners or movers workflow of a run starts from. */
function recordOf(plan: SyncPlan, options: ApplySyncOptions, id: string, total: number, batches: Pick<HrRecord, 'addBatch' | 'reactivateBatch' | 'seatBatch'>): Omit<HrRecord, 'state' | 'lifecycle'> {
  return {
    id,
    source: plan.export.path,
    sha256: plan.export.sha256,
    createdAt: new Date(options.offboarding.engine.context.clock.now()).toISOString(),
    target: plan.target,
    sim: options.offboarding.engine.context.sim,
    timeZone: options.timeZone,
    total,
    tracksOpen: true,
    runId: plan.runId,
    policy: plan.policy.path,
    ...(plan.planId === undefined ? {} : { planId: plan.planId }),
    ...batches,
  };
}

/** The person's state as submitted: waiting for the date, or ended as the pre-flight judged. */
function personOf(change: PlannedJoiner | PlannedMover, row: number, at: Date): Omit<HrPerson, 'phase'> & { phase: 'scheduled' | 'refused' | 'skipped' } {
  const { employee } = change;
  const userId = 'user' in change ? change.user.id : change.userId;
  const phase = change.verdict === 'change' ? 'scheduled' : change.verdict === 'no-op' ? 'skipped' : 'refused';
  return {
    row,
    line: employee.line,
    email: employee.email,
    ...(userId === undefined ? {} : { userId }),
    phase,
    version: 0,
    ...(change.reason === undefined || change.verdict === 'change' ? {} : { reason: change.reason }),
    ...(change.rule === undefined ? {} : { rule: change.rule }),
    notes: [],
    steps: [personStepOf('plan', change.verdict, at, change.cause)],
    employeeId: employee.employeeId,
    dueAt: change.dueAt,
    ...(dateOf(change) === undefined ? {} : { dueDate: dateOf(change) }),
    seat: change.seat.seat,
    seatRule: change.seat.rule,
    cause: change.cause,
  };
}

function dateOf(change: PlannedJoiner | PlannedMover) {
  return 'how' in change ? change.employee.start : change.employee.effective;
}

/** Outcomes of a person the plan refused, in every step batch: nothing will run for them. */
function refusedOutcomes(person: Pick<HrPerson, 'row' | 'line' | 'email' | 'userId' | 'phase' | 'reason' | 'rule'>, batches: readonly { batchId: string; action: string }[], sim: boolean, at: Date): RowOutcome[] {
  const end: StepEnd = person.phase === 'skipped'
    ? { outcome: 'unchanged', message: person.reason ?? 'nothing to do' }
    : { outcome: 'skipped', message: person.reason ?? 'refused at plan time', extra: { category: 'Refused', ...(person.rule === undefined ? {} : { rule: person.rule }) } };
  return batches.map((batch) => personOutcome(batch.batchId, person, batch.action, end, sim, at));
}

async function submitJoiners(plan: SyncPlan, options: ApplySyncOptions): Promise<{ workflowId: string; created: boolean }> {
  const engine = options.offboarding.engine.context;
  const id = plan.workflowIds.joiners;
  const at = new Date(engine.clock.now());
  const record = recordOf(plan, options, id, plan.joiners.length, { addBatch: `${id}-add`, reactivateBatch: `${id}-reactivate`, seatBatch: `${id}-seat` });
  const recordedAt = new Date(plan.plannedAt).toISOString();
  const persons: JoinerState[] = plan.joiners.map((joiner, index) => ({
    ...personOf(joiner, index + 1, at),
    // The plan's listing found them not in the organization (an add) or deactivated (a reactivation).
    atPlan: joiner.how === 'add' ? { recordedAt, found: 'absent' } : { recordedAt, found: 'member', status: 'DEACTIVATED' },
    ...(joiner.employee.firstName === undefined ? {} : { firstName: joiner.employee.firstName }),
    ...(joiner.employee.lastName === undefined ? {} : { lastName: joiner.employee.lastName }),
    notes: [joiner.cost],
  }));
  const batches = joinerBatches({ ...record, state: 'submitting', lifecycle: 'joiners' });
  const open = persons.filter((person) => person.phase === 'scheduled');
  const adds = open.filter((person) => plan.joiners[person.row - 1]?.how === 'add');
  const submitted = await submitWorkflow(engine, {
    lifecycle: createJoinerLifecycle(engine),
    record,
    persons,
    stepBatches: batches.map((batch) => ({
      batchId: batch.batchId,
      label: `${batch.name} step`,
      rows: batch.name === 'add' ? adds.map((person) => addRow(person, options.sendEmail)) : [],
      queued: batch.name === 'add' ? adds.length : batch.name === 'reactivate' ? open.length - adds.length : open.length,
    })),
    endedAtOnce: persons.filter((person) => person.phase !== 'scheduled').flatMap((person) => refusedOutcomes(person, batches, engine.sim, at)),
    steps: open.map((person) => ({ workflowId: id, row: person.row, step: JOIN_STEP, dueAt: person.dueAt })),
  });
  return { workflowId: submitted.workflow.id, created: submitted.created };
}

async function submitMovers(plan: SyncPlan, options: ApplySyncOptions): Promise<{ workflowId: string; created: boolean }> {
  const engine = options.offboarding.engine.context;
  const id = plan.workflowIds.movers;
  const at = new Date(engine.clock.now());
  const record = recordOf(plan, options, id, plan.movers.length, { seatBatch: `${id}-seat` });
  const persons: MoverState[] = plan.movers.map((mover, index) => {
    const atPlan = memberAtPlan(mover.user, plan.planId, plan.plannedAt);
    return { ...personOf(mover, index + 1, at), ...(mover.user.seat === undefined ? {} : { seatBefore: mover.user.seat }), ...(atPlan === undefined ? {} : { atPlan }) };
  });
  const batches = moverBatches({ ...record, state: 'submitting', lifecycle: 'movers' });
  const open = persons.filter((person) => person.phase === 'scheduled');
  const submitted = await submitWorkflow(engine, {
    lifecycle: createMoverLifecycle(engine),
    record,
    persons,
    stepBatches: batches.map((batch) => ({ batchId: batch.batchId, label: `${batch.name} step`, rows: [], queued: open.length })),
    endedAtOnce: persons.filter((person) => person.phase !== 'scheduled').flatMap((person) => refusedOutcomes(person, batches, engine.sim, at)),
    steps: open.map((person) => ({ workflowId: id, row: person.row, step: MOVE_STEP, dueAt: person.dueAt })),
  });
  return { workflowId: submitted.workflow.id, created: submitted.created };
}
