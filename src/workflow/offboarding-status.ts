import { formatHold } from './hold-duration.js';
import { OPEN_PHASES, type LeaverPhase, type LeaverState, type LeaverStep } from './leaver-state.js';
import { describeRows, type PersonRow } from './person-rows.js';
import { reactivationSeatOf } from './reactivation-seat.js';
import type { WorkflowRecord } from './workflow-store.js';

/** A step due this long ago and still not taken means no worker is serving the step queue. */
export const OVERDUE_AFTER_MS = 60_000;

export interface LeaverView {
  row: number;
  email: string;
  userId?: number;
  phase: LeaverPhase;
  /**
   * What happened, from the rows' states and outcomes (the phase says what the offboarding intends): the phase, except
   * for an undone leaver whose reactivation is still being made (`undoing`) or did not succeed (`undo-failed`, with
   * the reason in `reason`).
   */
  status: LeaverStatus;
  /** Changes the rows made or are making that the phase does not say: made before their due instant, being made now. */
  happened: string[];
  /** The last thing that happened. */
  last?: LeaverStep;
  /** The next step and when it is due (ISO); `overdue` when it is due and no worker has taken it. */
  next?: { step: 'deactivate' | 'remove'; dueAt: string; overdue: boolean };
  /** Until when `undo` can act (ISO): the end of the hold. */
  undoUntil?: string;
  /** What undoing now would cost: a deactivated leaver's reactivation assigns a Member seat (reactivation-seat.ts). */
  undoCost?: string;
  transferTo?: string;
  transferUsed?: string;
  reason?: string;
  undo?: LeaverState['undo'];
  notes: string[];
}

export interface OffboardingStatus {
  workflow: WorkflowRecord;
  phases: Partial<Record<LeaverPhase, number>>;
  /** Leavers by what happened to them (`status`): what people are shown. */
  statuses: Partial<Record<LeaverStatus, number>>;
  leavers: LeaverView[];
  /** Workers connected to the step queue now. */
  workers: number;
  overdue: number;
}

export type LeaverStatus = LeaverPhase | 'undoing' | 'undo-failed';

/** An undone leaver's status from the reactivate and restore rows: reactivated, being reactivated, or not. */
function undoStatus(rows: readonly PersonRow[]): { status: LeaverStatus; reason?: string } {
  const reactivation = rows.find((row) => row.action === 'reactivate');
  const restore = rows.find((row) => row.action === 'downgrade');
  // An undo that needs no reactivation records the reactivate row's end at once: without one, it is to come or running.
  if (reactivation === undefined) return { status: 'undone' };
  if (reactivation.outcome === undefined) return { status: 'undoing' };
  const { outcome } = reactivation.outcome;
  if (outcome === 'failed' || outcome === 'unknown' || outcome === 'cancelled') {
    return { status: 'undo-failed', reason: `the reactivation ${outcome === 'unknown' ? 'may have been applied and could not be confirmed' : outcome}: ${reactivation.outcome.message ?? ''}`.trim() };
  }
  if (restore?.outcome?.outcome === 'failed' || restore?.outcome?.outcome === 'unknown') {
    return { status: 'undone', reason: `reactivated, but the seat held before was not given back: ${restore.outcome.message ?? restore.outcome.outcome}` };
  }
  return { status: 'undone' };
}

/**
 * Where one leaver stands, what comes next and until when undo is possible, at `nowMs`; `rows` (the leaver's rows of
 * the step batches, person-rows.ts) say what happened.
 */
export function leaverView(leaver: LeaverState, workflow: Pick<WorkflowRecord, 'holdMs'>, nowMs: number, rows: readonly PersonRow[] = []): LeaverView {
  const undo = leaver.phase === 'undone' ? undoStatus(rows) : undefined;
  const reason = undo?.reason ?? leaver.reason;
  const last = leaver.steps[leaver.steps.length - 1];
  const due = (step: 'deactivate' | 'remove', at: number) => ({ step, dueAt: new Date(at).toISOString(), overdue: at < nowMs - OVERDUE_AFTER_MS });
  const next =
    leaver.phase === 'scheduled' ? due('deactivate', leaver.leaveAt)
    : leaver.phase === 'deactivating' ? due('deactivate', leaver.deactivateRequestedAt ?? leaver.leaveAt)
    : leaver.phase === 'holding' || leaver.phase === 'removing' ? due('remove', leaver.holdUntil ?? nowMs)
    : undefined;
  const undoUntil = leaver.phase === 'holding' ? leaver.holdUntil : leaver.phase === 'scheduled' || leaver.phase === 'deactivating' ? leaver.leaveAt + workflow.holdMs : undefined;
  return {
    row: leaver.row,
    email: leaver.email,
    ...(leaver.userId === undefined ? {} : { userId: leaver.userId }),
    phase: leaver.phase,
    status: undo?.status ?? leaver.phase,
    happened: describeRows(rows),
    ...(last === undefined ? {} : { last }),
    ...(next === undefined ? {} : { next }),
    ...(undoUntil === undefined ? {} : { undoUntil: new Date(undoUntil).toISOString() }),
    ...(leaver.phase === 'holding' && leaver.stateBefore?.status !== 'DEACTIVATED' ? { undoCost: reactivationSeatOf(leaver.stateBefore).cost } : {}),
    ...(leaver.transferTo === undefined ? {} : { transferTo: leaver.transferTo.email }),
    ...(leaver.transferUsed === undefined ? {} : { transferUsed: leaver.transferUsed.email }),
    ...(reason === undefined ? {} : { reason }),
    ...(leaver.undo === undefined ? {} : { undo: leaver.undo }),
    notes: leaver.notes,
  };
}

export function offboardingStatus(workflow: WorkflowRecord, leavers: readonly LeaverState[], nowMs: number, workers: number, rows: ReadonlyMap<number, readonly PersonRow[]> = new Map()): OffboardingStatus {
  const views = leavers.map((leaver) => leaverView(leaver, workflow, nowMs, rows.get(leaver.row)));
  const phases: Partial<Record<LeaverPhase, number>> = {};
  const statuses: Partial<Record<LeaverStatus, number>> = {};
  for (const view of views) {
    phases[view.phase] = (phases[view.phase] ?? 0) + 1;
    statuses[view.status] = (statuses[view.status] ?? 0) + 1;
  }
  return { workflow, phases, statuses, leavers: views, workers, overdue: views.filter((view) => view.next?.overdue === true && OPEN_PHASES.has(view.phase)).length };
}

/** The status as text, one line per leaver. */
export function formatOffboardingStatus(status: OffboardingStatus): string {
  const { workflow } = status;
  const lines = [
    `Offboarding ${workflow.id}  ${workflow.state}${workflow.sim ? '  [SIMULATION]' : ''}  ${workflow.source}`,
    `  hold ${formatHold(workflow.holdMs)}; step batches ${[workflow.deactivateBatch, workflow.removeBatch, workflow.reactivateBatch, workflow.restoreBatch].filter((id) => id !== undefined).join(', ')}`,
    `  ${Object.entries(status.statuses).map(([state, n]) => `${n} ${state}`).join(', ')}`,
  ];
  for (const view of status.leavers) {
    const next = view.next === undefined ? '' : `  next: ${view.next.step} ${view.next.dueAt}${view.next.overdue ? ' (DUE, no worker has taken it)' : ''}`;
    const undo = view.undoUntil === undefined ? '' : `  undo until ${view.undoUntil}`;
    const last = view.last === undefined ? '' : `  last: ${view.last.step} ${view.last.outcome} ${view.last.at}`;
    const who = view.transferUsed ?? view.transferTo;
    lines.push(`  ${String(view.row).padStart(3)}  ${view.email.padEnd(34)} ${view.status.padEnd(12)}${last}${next}${undo}${who === undefined ? '' : `  transfer → ${who}`}`);
    if (view.reason !== undefined) lines.push(`         ${view.reason}`);
    for (const line of view.happened) lines.push(`         ${line}`);
    if (view.undo !== undefined) lines.push(`         undone by ${view.undo.by} at ${view.undo.at}`);
    for (const note of view.notes) lines.push(`         note: ${note}`);
  }
  if (status.overdue > 0) {
    lines.push(`${status.overdue} step(s) are due and no worker has taken them${status.workers === 0 ? ' (no worker is connected)' : ''}: start one with  seatflow worker`);
  }
  return `${lines.join('\n')}\n`;
}
