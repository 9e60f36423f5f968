import type { CancelRequest, CancelResult } from './cancel-pending.js';
import { endSteps } from './leaver-ends.js';
import { reactivateRow } from './leaver-rows.js';
import { UNDOABLE_PHASES, stepOf, type LeaverState } from './leaver-state.js';
import { inFlight, rowsOfPersons } from './person-rows.js';
import { reactivationSeatOf } from './reactivation-seat.js';
import { DONE_OUTCOMES } from './step-rows.js';
import { stepJobId, stepJobOptions, type StepJobData } from './step-job.js';
import type { WorkflowContext } from './workflow-context.js';
import type { WorkflowRecord } from './workflow-store.js';

/** An undo of an offboarding: whom (every leaver when absent), and who asked (the CLI's operator, the API's caller). */
export type UndoRequest = CancelRequest;

/** What undo did to one leaver: as for any lifecycle's person, and the reactivation it queued. */
export interface UndoResult extends CancelResult {
  /**
   * undone: the removal is cancelled (and a reactivation queued when the user was deactivated); already-undone: an
   * earlier undo did it (nothing to do, not a failure); refused: see message.
   */
  result: CancelResult['result'];
  /** True when a reactivation was queued (its outcome is in the reactivate step batch). */
  reactivating: boolean;
  /** What the reactivation costs and which seat is given back after it (when reactivating). */
  seat?: string;
}

/**
 * Undo before the removal: the pending steps are cancelled and a user seatflow deactivated is reactivated by the
 * `reactivate` step (a row of the reactivate step batch, run by the existing reactivate job type, then, where the
 * seat before was lower than the Member seat a reactivation assigns, a downgrade row of the restore batch). The hold
 * never outlasts the reactivation window, so the service still allows it. From the re-check before removal on, undo
 * refuses and says why. Leavers undone before are reported as such, not refused.
 */
export async function undoOffboarding(context: WorkflowContext, workflow: WorkflowRecord, request: UndoRequest): Promise<UndoResult[]> {
  const leavers = await context.store.leavers(workflow.id);
  const wanted = request.users?.map((email) => email.trim().toLowerCase());
  const results: UndoResult[] = [];
  for (const email of wanted ?? []) {
    if (!leavers.some((leaver) => leaver.email === email)) results.push({ email, result: 'refused', reactivating: false, message: `${email} is not a leaver of offboarding ${workflow.id}` });
  }
  for (const leaver of leavers) {
    if (wanted !== undefined && !wanted.includes(leaver.email)) continue;
    // Refused at plan time: nothing was ever done to them, so there is nothing to undo or report.
    if (wanted === undefined && leaver.phase === 'refused') continue;
    results.push(await undoLeaver(context, workflow, leaver, request.by));
  }
  return results;
}

async function undoLeaver(context: WorkflowContext, workflow: WorkflowRecord, leaver: LeaverState, by: string): Promise<UndoResult> {
  const at = new Date(context.clock.now());
  const base = { email: leaver.email, row: leaver.row };
  // What the deactivate row says happened, not what the phase intends: a leaver still `scheduled` whose deactivation
  // is being made, or was made, is not "never deactivated".
  const [deactivation] = (await rowsOfPersons(context.batches, [{ batchId: workflow.deactivateBatch, action: 'deactivate' }], [leaver.row])).get(leaver.row) ?? [];
  if (leaver.phase === 'scheduled' && deactivation !== undefined && inFlight(deactivation)) {
    return { ...base, result: 'refused', reactivating: false, message: 'refused for now: the deactivation is being made (its row is queued or running); try again in a few seconds (a worker must be running)' };
  }
  const deactivatedAlready = deactivation?.outcome !== undefined && DONE_OUTCOMES.has(deactivation.outcome.outcome);
  let from: LeaverState['phase'] | undefined;
  const undone = await context.store.update(workflow.id, leaver.row, (current) => {
    if (!UNDOABLE_PHASES.has(current.phase)) return undefined;
    from = current.phase;
    return { ...current, phase: 'undone', undo: { by, at: at.toISOString(), from: current.phase }, steps: [...current.steps, stepOf('undo', 'done', at, `by ${by}`)] };
  });
  if (undone === undefined || from === undefined) {
    const current = (await context.store.getLeaver(workflow.id, leaver.row)) ?? leaver;
    if (current.phase === 'undone') return { ...base, result: 'already-undone', reactivating: false, message: `already undone by ${current.undo?.by ?? '?'} at ${current.undo?.at ?? '?'}` };
    return { ...base, result: 'refused', reactivating: false, message: refusal(current) };
  }
  for (const step of ['deactivate', 'remove'] as const) {
    // A step that is running right now cannot be removed; it reads the phase and does nothing more.
    await context.stepQueue.remove(stepJobId(workflow.id, leaver.row, step)).catch(() => 0);
    await context.steps.done(workflow.id, leaver.row, step);
  }
  const cancelled = { outcome: 'cancelled' as const, message: `undone by ${by} at ${at.toISOString()}` };
  if (from === 'scheduled' && !deactivatedAlready) {
    await endSteps(context, workflow, undone, { deactivate: cancelled, remove: cancelled, reactivate: { outcome: 'skipped', message: 'never deactivated: nothing to reactivate' } });
    return { ...base, result: 'undone', reactivating: false, message: 'cancelled before the leave date: never deactivated' };
  }
  if (undone.stateBefore?.status === 'DEACTIVATED' || deactivation?.outcome?.outcome === 'unchanged') {
    await endSteps(context, workflow, undone, { remove: cancelled, reactivate: { outcome: 'skipped', message: 'already deactivated before the offboarding: left deactivated' } });
    return { ...base, result: 'undone', reactivating: false, message: 'removal cancelled; the user was deactivated before the offboarding, so stays deactivated' };
  }
  await context.batches.saveRows(workflow.reactivateBatch, [reactivateRow(undone)]);
  await queueReactivation(context, workflow, undone.row);
  await endSteps(context, workflow, undone, { remove: cancelled });
  const { cost } = reactivationSeatOf(undone.stateBefore);
  const made = from === 'scheduled' ? `the deactivation had already been made (at ${deactivation?.outcome?.finishedAt ?? '?'}); ` : '';
  return { ...base, result: 'undone', reactivating: true, seat: cost, message: `${made}removal cancelled; reactivation queued` };
}

/** The reactivate step of a leaver, due now (also queued again by `seatflow retry` of the reactivate batch). */
export async function queueReactivation(context: WorkflowContext, workflow: WorkflowRecord, row: number): Promise<void> {
  const now = context.clock.now();
  const data: StepJobData = { workflowId: workflow.id, row, step: 'reactivate', dueAt: now };
  await context.steps.add(workflow.id, [data]);
  await context.stepQueue.remove(stepJobId(workflow.id, row, 'reactivate'));
  await context.stepQueue.add('reactivate', data, stepJobOptions(data, now));
}

function refusal(leaver: LeaverState): string {
  switch (leaver.phase) {
    case 'removing':
      return 'refused: the removal has started (the hold ended and the re-check passed); it cannot be undone';
    case 'removed':
      return `refused: already removed${lastStepTime(leaver, 'remove')}; a removed user cannot be reactivated — add them again if needed`;
    case 'deactivating':
      return 'refused for now: the deactivation is running; try again in a few seconds (a worker must be running)';
    default:
      return `nothing to undo: ${leaver.phase}${leaver.reason === undefined ? '' : ` (${leaver.reason})`}`;
  }
}

function lastStepTime(leaver: LeaverState, step: string): string {
  const found = [...leaver.steps].reverse().find((s) => s.step === step);
  return found === undefined ? '' : ` at ${found.at}`;
}
