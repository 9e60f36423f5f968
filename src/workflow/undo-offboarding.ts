import { rowJobOptions } from '../queue/row-job.js';
import { endSteps } from './leaver-ends.js';
import { UNDOABLE_PHASES, stepOf, type LeaverState } from './leaver-state.js';
import { stepJobId } from './step-job.js';
import type { WorkflowContext } from './workflow-context.js';
import type { WorkflowRecord } from './workflow-store.js';

export interface UndoRequest {
  /** Only these leavers (e-mails); all of the offboarding when absent. */
  users?: readonly string[];
  /** Who asked, recorded with the undo (the OS user for the CLI, the caller for the control API). */
  by: string;
}

export interface UndoResult {
  email: string;
  row?: number;
  /** undone: the removal is cancelled (and a reactivation queued when the user was deactivated); refused: see message. */
  result: 'undone' | 'refused';
  /** True when a reactivate row was queued (its outcome is in the reactivate step batch). */
  reactivating: boolean;
  message: string;
}

/**
 * Undo before the removal: the pending steps are cancelled and a user seatflow deactivated is reactivated (a row of
 * the reactivate step batch, run by the existing reactivate job type). The hold never outlasts the reactivation
 * window, so the service still allows it. From the re-check before removal on, undo refuses and says why.
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
    if (wanted === undefined && (leaver.phase === 'refused' || leaver.phase === 'undone')) continue;
    results.push(await undoLeaver(context, workflow, leaver, request.by));
  }
  return results;
}

async function undoLeaver(context: WorkflowContext, workflow: WorkflowRecord, leaver: LeaverState, by: string): Promise<UndoResult> {
  const at = new Date(context.clock.now());
  const base = { email: leaver.email, row: leaver.row };
  let from: LeaverState['phase'] | undefined;
  const undone = await context.store.update(workflow.id, leaver.row, (current) => {
    if (!UNDOABLE_PHASES.has(current.phase)) return undefined;
    from = current.phase;
    return { ...current, phase: 'undone', undo: { by, at: at.toISOString(), from: current.phase }, steps: [...current.steps, stepOf('undo', 'done', at, `by ${by}`)] };
  });
  if (undone === undefined || from === undefined) {
    const current = (await context.store.getLeaver(workflow.id, leaver.row)) ?? leaver;
    return { ...base, result: 'refused', reactivating: false, message: refusal(current) };
  }
  for (const step of ['deactivate', 'remove'] as const) {
    // A step that is running right now cannot be removed; it reads the phase and does nothing more.
    await context.stepQueue.remove(stepJobId(workflow.id, leaver.row, step)).catch(() => 0);
  }
  const cancelled = { outcome: 'cancelled' as const, message: `undone by ${by} at ${at.toISOString()}` };
  if (from === 'scheduled') {
    await endSteps(context, workflow, undone, { deactivate: cancelled, remove: cancelled, reactivate: { outcome: 'skipped', message: 'never deactivated: nothing to reactivate' } });
    return { ...base, result: 'undone', reactivating: false, message: 'cancelled before the leave date: never deactivated' };
  }
  if (undone.stateBefore?.status === 'DEACTIVATED') {
    await endSteps(context, workflow, undone, { remove: cancelled, reactivate: { outcome: 'skipped', message: 'already deactivated before the offboarding: left deactivated' } });
    return { ...base, result: 'undone', reactivating: false, message: 'removal cancelled; the user was deactivated before the offboarding, so stays deactivated' };
  }
  await context.batches.saveRows(workflow.reactivateBatch, [
    { row: undone.row, line: undone.line, action: { action: 'reactivate', user: { email: undone.email } }, actionName: 'reactivate', verdict: 'change', target: { ...(undone.userId === undefined ? {} : { userId: undone.userId }), email: undone.email } },
  ]);
  await context.rowsQueue.add('reactivate', { batchId: workflow.reactivateBatch, row: undone.row }, rowJobOptions(workflow.reactivateBatch, undone.row));
  await endSteps(context, workflow, undone, { remove: cancelled });
  return { ...base, result: 'undone', reactivating: true, message: 'removal cancelled; reactivation queued' };
}

function refusal(leaver: LeaverState): string {
  switch (leaver.phase) {
    case 'removing':
      return 'refused: the removal has started (the hold ended and the re-check passed); it cannot be undone';
    case 'removed':
      return `refused: already removed${lastStepTime(leaver, 'remove')}; a removed user cannot be reactivated — add them again if needed`;
    case 'deactivating':
      return 'refused for now: the deactivation is running; try again in a few seconds (a worker must be running)';
    case 'undone':
      return `already undone by ${leaver.undo?.by ?? '?'} at ${leaver.undo?.at ?? '?'}`;
    default:
      return `nothing to undo: ${leaver.phase}${leaver.reason === undefined ? '' : ` (${leaver.reason})`}`;
  }
}

function lastStepTime(leaver: LeaverState, step: string): string {
  const found = [...leaver.steps].reverse().find((s) => s.step === step);
  return found === undefined ? '' : ` at ${found.at}`;
}
