import { formatHold } from './hold-duration.js';
import { OPEN_PHASES, type LeaverPhase, type LeaverState, type LeaverStep } from './leaver-state.js';
import { reactivationSeatOf } from './reactivation-seat.js';
import type { WorkflowRecord } from './workflow-store.js';

/** A step due this long ago and still not taken means no worker is serving the step queue. */
export const OVERDUE_AFTER_MS = 60_000;

export interface LeaverView {
  row: number;
  email: string;
  userId?: number;
  phase: LeaverPhase;
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
  leavers: LeaverView[];
  /** Workers connected to the step queue now. */
  workers: number;
  overdue: number;
}

/** Where one leaver stands, what comes next and until when undo is possible, at `nowMs`. */
export function leaverView(leaver: LeaverState, workflow: Pick<WorkflowRecord, 'holdMs'>, nowMs: number): LeaverView {
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
    ...(last === undefined ? {} : { last }),
    ...(next === undefined ? {} : { next }),
    ...(undoUntil === undefined ? {} : { undoUntil: new Date(undoUntil).toISOString() }),
    ...(leaver.phase === 'holding' && leaver.stateBefore?.status !== 'DEACTIVATED' ? { undoCost: reactivationSeatOf(leaver.stateBefore).cost } : {}),
    ...(leaver.transferTo === undefined ? {} : { transferTo: leaver.transferTo.email }),
    ...(leaver.transferUsed === undefined ? {} : { transferUsed: leaver.transferUsed.email }),
    ...(leaver.reason === undefined ? {} : { reason: leaver.reason }),
    ...(leaver.undo === undefined ? {} : { undo: leaver.undo }),
    notes: leaver.notes,
  };
}

export function offboardingStatus(workflow: WorkflowRecord, leavers: readonly LeaverState[], nowMs: number, workers: number): OffboardingStatus {
  const views = leavers.map((leaver) => leaverView(leaver, workflow, nowMs));
  const phases: Partial<Record<LeaverPhase, number>> = {};
  for (const view of views) phases[view.phase] = (phases[view.phase] ?? 0) + 1;
  return { workflow, phases, leavers: views, workers, overdue: views.filter((view) => view.next?.overdue === true && OPEN_PHASES.has(view.phase)).length };
}

/** The status as text, one line per leaver. */
export function formatOffboardingStatus(status: OffboardingStatus): string {
  const { workflow } = status;
  const lines = [
    `Offboarding ${workflow.id}  ${workflow.state}${workflow.sim ? '  [SIMULATION]' : ''}  ${workflow.source}`,
    `  hold ${formatHold(workflow.holdMs)}; step batches ${[workflow.deactivateBatch, workflow.removeBatch, workflow.reactivateBatch, workflow.restoreBatch].filter((id) => id !== undefined).join(', ')}`,
    `  ${Object.entries(status.phases).map(([phase, n]) => `${n} ${phase}`).join(', ')}`,
  ];
  for (const view of status.leavers) {
    const next = view.next === undefined ? '' : `  next: ${view.next.step} ${view.next.dueAt}${view.next.overdue ? ' (DUE, no worker has taken it)' : ''}`;
    const undo = view.undoUntil === undefined ? '' : `  undo until ${view.undoUntil}`;
    const last = view.last === undefined ? '' : `  last: ${view.last.step} ${view.last.outcome} ${view.last.at}`;
    const who = view.transferUsed ?? view.transferTo;
    lines.push(`  ${String(view.row).padStart(3)}  ${view.email.padEnd(34)} ${view.phase.padEnd(12)}${last}${next}${undo}${who === undefined ? '' : `  transfer → ${who}`}`);
    if (view.reason !== undefined) lines.push(`         ${view.reason}`);
    if (view.undo !== undefined) lines.push(`         undone by ${view.undo.by} at ${view.undo.at}`);
    for (const note of view.notes) lines.push(`         note: ${note}`);
  }
  if (status.overdue > 0) {
    lines.push(`${status.overdue} step(s) are due and no worker has taken them${status.workers === 0 ? ' (no worker is connected)' : ''}: start one with  seatflow worker`);
  }
  return `${lines.join('\n')}\n`;
}
