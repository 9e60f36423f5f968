import { cancelPending, type CancelRequest, type CancelResult } from '../workflow/cancel-pending.js';
import type { Lifecycle } from '../workflow/lifecycle.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import type { StepView } from '../workflow/pending-steps.js';
import { personReport, type PersonReport } from '../workflow/person-report.js';
import { workflowStatus, type PersonDescription, type WorkflowStatus } from '../workflow/person-status.js';
import type { HrRecord, JoinerState, MoverState } from './hr-workflow-state.js';
import { joinerBatches, JOINERS } from './joiner-lifecycle.js';
import { moverBatches, MOVERS } from './mover-lifecycle.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** What status, reports and the dashboard say of a joiner besides their phase. */
export const JOINER_DESCRIPTION: PersonDescription<JoinerState> = {
  waitingPhase: 'scheduled',
  detail: (joiner) => ({
    employeeId: joiner.employeeId,
    start: joiner.dueDate === undefined ? iso(joiner.dueAt) : `${iso(joiner.dueAt)} (${joiner.dueDate.column}: ${joiner.dueDate.readAs})`,
    seat: `${joiner.seat} (${joiner.seatRule})`,
    cause: joiner.cause,
    ...(joiner.how === undefined ? {} : { found: joiner.how }),
  }),
};

export const MOVER_DESCRIPTION: PersonDescription<MoverState> = {
  waitingPhase: 'scheduled',
  detail: (mover) => ({
    employeeId: mover.employeeId,
    effective: mover.dueDate === undefined ? iso(mover.dueAt) : `${iso(mover.dueAt)} (${mover.dueDate.column}: ${mover.dueDate.readAs})`,
    seat: `${mover.seatBefore ?? '?'} → ${mover.seat} (${mover.seatRule})`,
    cause: mover.cause,
  }),
};

/** A change to come, as the dashboard and the metrics show it: who, what, when. */
export interface UpcomingChange {
  kind: 'joiner' | 'mover' | 'leaver';
  /** join, move; a leaver's deactivate or remove. */
  step: string;
  email: string;
  dueAt: string;
  due: boolean;
  phase: string;
  workflowId: string;
  /** Where the step's job is (pending-steps.ts): a due step no worker has is overdue. */
  job: StepView['job'];
}

const KIND: Readonly<Record<string, UpcomingChange['kind']>> = { joiners: 'joiner', movers: 'mover', offboarding: 'leaver' };

/** The joiners and movers workflows of a target (on the engine of its offboarding system): status, report, undo, upcoming. */
export interface HrWorkflows {
  /** Undefined when the id names no joiners or movers workflow. */
  status(workflowId: string): Promise<WorkflowStatus | undefined>;
  report(workflowId: string): Promise<{ report: PersonReport; workflow: HrRecord } | undefined>;
  /** Undo until the step runs, per person or for the whole workflow. */
  undo(workflowId: string, request: CancelRequest): Promise<CancelResult[] | undefined>;
  /** Every joiner, mover and leaver with a step to come, in date order (the engine's step index). */
  upcoming(): Promise<UpcomingChange[]>;
}

export function hrWorkflowsOf(system: OffboardingSystem): HrWorkflows {
  const { engine } = system;
  const found = async (workflowId: string) => {
    const hit = await engine.lifecycleOfWorkflow(workflowId).catch(() => undefined);
    if (hit === undefined || (hit.lifecycle.name !== JOINERS && hit.lifecycle.name !== MOVERS)) return undefined;
    const lifecycle = hit.lifecycle as Lifecycle<HrRecord, JoinerState | MoverState>;
    const workflow = await lifecycle.records.get(workflowId);
    if (workflow === undefined) return undefined;
    const joiners = lifecycle.name === JOINERS;
    const describe = (joiners ? JOINER_DESCRIPTION : MOVER_DESCRIPTION) as PersonDescription<JoinerState | MoverState>;
    return { lifecycle, workflow, describe, batches: joiners ? joinerBatches(workflow) : moverBatches(workflow) };
  };
  return {
    async status(workflowId) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      await engine.context.clock.refresh?.();
      return workflowStatus(engine.context, hit.lifecycle, hit.describe, hit.workflow, engine.context.clock.now());
    },
    async report(workflowId) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      await engine.context.clock.refresh?.();
      return { report: await personReport(hit.lifecycle, hit.describe, hit.workflow, hit.batches, engine.context.batches, new Date(engine.context.clock.now())), workflow: hit.workflow };
    },
    async undo(workflowId, request) {
      const hit = await found(workflowId);
      if (hit === undefined) return undefined;
      return cancelPending(engine.context, hit.lifecycle, hit.workflow, request, { waitingPhase: 'scheduled', stepBatches: hit.batches });
    },
    async upcoming() {
      const views: StepView[] = await engine.steps();
      // People's own changes only: a migration's checks (src/migrate) are the engine's too, but nobody joins or leaves.
      return views.flatMap((view) => {
        const kind = KIND[view.lifecycle];
        return kind === undefined ? [] : [{ kind, step: view.step, email: view.email, dueAt: view.dueAt, due: view.due, phase: view.phase, workflowId: view.workflowId, job: view.job }];
      });
    },
  };
}
