import type { Lifecycle } from './lifecycle.js';
import type { PersonBase, PersonStep, WorkflowBase } from './workflow-shapes.js';
import { OVERDUE_AFTER_MS } from './offboarding-status.js';
import type { PendingStep } from './step-index.js';
import type { EngineContext } from './workflow-context.js';

/** Where one person of a workflow stands, whatever the lifecycle. */
export interface PersonView {
  row: number;
  email: string;
  userId?: number;
  phase: string;
  /** The last thing that happened. */
  last?: PersonStep;
  /** The next step and when it is due (ISO); `overdue` when it is due and no worker has taken it. */
  next?: { step: string; dueAt: string; overdue: boolean };
  /** Until when `undo` can stop it (ISO): until the next step runs, while the person waits for it. */
  undoUntil?: string;
  reason?: string;
  notes: string[];
  /** What the lifecycle says of the person besides (the seat, the rule, the cause). */
  detail: Record<string, string>;
}

export interface WorkflowStatus {
  workflow: WorkflowBase;
  lifecycle: string;
  phases: Record<string, number>;
  persons: PersonView[];
  /** Workers connected to the step queue now. */
  workers: number;
  overdue: number;
}

/** What a lifecycle shows of its people in status, reports and the dashboard. */
export interface PersonDescription<P extends PersonBase> {
  /** The phase in which a person waits for their step and undo can still stop it. */
  waitingPhase: string;
  detail(person: P): Record<string, string>;
}

/** Every person of a workflow with their next step from the step index (one read), at `nowMs`. */
export async function workflowStatus<R extends WorkflowBase, P extends PersonBase>(
  context: EngineContext,
  lifecycle: Lifecycle<R, P>,
  describe: PersonDescription<P>,
  workflow: R,
  nowMs: number,
): Promise<WorkflowStatus> {
  const pending = new Map<number, PendingStep>();
  for (const step of await context.steps.list(workflow.id)) if (!pending.has(step.row)) pending.set(step.row, step);
  const persons = (await lifecycle.persons.all(workflow.id)).map((person) => personView(person, pending.get(person.row), describe, nowMs));
  const phases: Record<string, number> = {};
  for (const person of persons) phases[person.phase] = (phases[person.phase] ?? 0) + 1;
  return {
    workflow,
    lifecycle: lifecycle.name,
    phases,
    persons,
    workers: await context.stepQueue.getWorkersCount().catch(() => 0),
    overdue: persons.filter((person) => person.next?.overdue === true).length,
  };
}

export function personView<P extends PersonBase>(person: P, pending: PendingStep | undefined, describe: PersonDescription<P>, nowMs: number): PersonView {
  const last = person.steps[person.steps.length - 1];
  const next = pending === undefined ? undefined : { step: pending.step, dueAt: new Date(pending.dueAt).toISOString(), overdue: pending.dueAt < nowMs - OVERDUE_AFTER_MS };
  return {
    row: person.row,
    email: person.email,
    ...(person.userId === undefined ? {} : { userId: person.userId }),
    phase: person.phase,
    ...(last === undefined ? {} : { last }),
    ...(next === undefined ? {} : { next }),
    ...(next !== undefined && person.phase === describe.waitingPhase ? { undoUntil: next.dueAt } : {}),
    ...(person.reason === undefined ? {} : { reason: person.reason }),
    notes: person.notes,
    detail: describe.detail(person),
  };
}

/** The status as text, one line per person. */
export function formatWorkflowStatus(status: WorkflowStatus): string {
  const { workflow } = status;
  const lines = [
    `${capitalised(status.lifecycle)} ${workflow.id}  ${workflow.state}${workflow.sim ? '  [SIMULATION]' : ''}  ${workflow.source}`,
    `  ${Object.entries(status.phases).map(([phase, n]) => `${n} ${phase}`).join(', ') || 'nobody'}`,
  ];
  for (const view of status.persons) {
    const next = view.next === undefined ? '' : `  next: ${view.next.step} ${view.next.dueAt}${view.next.overdue ? ' (DUE, no worker has taken it)' : ''}`;
    const undo = view.undoUntil === undefined ? '' : `  undo until ${view.undoUntil}`;
    const last = view.last === undefined ? '' : `  last: ${view.last.step} ${view.last.outcome} ${view.last.at}`;
    const detail = Object.entries(view.detail).map(([key, value]) => `${key} ${value}`).join('; ');
    lines.push(`  ${String(view.row).padStart(3)}  ${view.email.padEnd(34)} ${view.phase.padEnd(12)}${last}${next}${undo}`);
    if (detail !== '') lines.push(`         ${detail}`);
    if (view.reason !== undefined) lines.push(`         ${view.reason}`);
    for (const note of view.notes) lines.push(`         note: ${note}`);
  }
  if (status.overdue > 0) {
    lines.push(`${status.overdue} step(s) are due and no worker has taken them${status.workers === 0 ? ' (no worker is connected)' : ''}: start one with  seatflow worker`);
  }
  return `${lines.join('\n')}\n`;
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
