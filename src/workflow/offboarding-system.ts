import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { offboardingStepBatches } from './leaver-ends.js';
import { OPEN_PHASES } from './leaver-state.js';
import { createOffboardingLifecycle, offboardingContextOf } from './offboarding-lifecycle.js';
import type { RunNowRequest, RunNowResult, StepView } from './pending-steps.js';
import { leaverView, offboardingStatus, type LeaverView, type OffboardingStatus } from './offboarding-status.js';
import { offboardingReportRows, type OffboardingReportRow } from './offboarding-report.js';
import { planOffboarding, type OffboardingOptions, type OffboardingPlan } from './plan-offboarding.js';
import type { LeaversFile } from './read-leavers.js';
import { rowsOfPersons } from './person-rows.js';
import { retryStepBatch, stepBatchOf, type StepBatchRetry } from './retry-step-batch.js';
import { submitOffboarding, workflowIdOf, type SubmittedOffboarding } from './submit-offboarding.js';
import { undoOffboarding, type UndoRequest, type UndoResult } from './undo-offboarding.js';
import type { WorkflowContext } from './workflow-context.js';
import { createWorkflowEngine, type LifecycleFactory, type StepWorkerHandle, type StepWorkerOptions, type WorkflowEngine, type WorkflowEngineOptions } from './workflow-engine.js';
import { leavingOwnerOf, type WorkflowStore } from './workflow-store.js';

export type { StepWorkerOptions } from './workflow-engine.js';

/** The engine's options (its Redis, batches and target), and the offboarding configuration its timings come from. */
export interface OffboardingSystemOptions extends Pick<WorkflowEngineOptions, 'batches' | 'redis' | 'prefix' | 'target' | 'sim' | 'logger'> {
  offboarding: Config['offboarding'];
  /**
   * The service's clock (service-clock.ts): due times and holds are taken on it. Default the system clock; tests pass
   * the reference server's, so due times and holds move with it.
   */
  clock?: Clock;
  /**
   * The other lifecycles the engine runs beside offboarding (joiners and movers of `seatflow sync`): the step queue of
   * a target is one queue, so a process that takes steps must know every lifecycle that queues them.
   */
  lifecycles?: readonly LifecycleFactory[];
}

/** A hold as the dashboard lists it: a leaver undo can still act on. */
export interface HoldView extends LeaverView {
  workflowId: string;
}

export interface OffboardingSystem {
  store: WorkflowStore;
  context: WorkflowContext;
  /** The engine the offboarding lifecycle (and the others given) runs on. */
  engine: WorkflowEngine;
  /**
   * Plans the offboarding of `file`. A leaver already in the offboarding this very file and these options make (the
   * same id) is not "leaving elsewhere": planned again (a submission refused as not acknowledged, yet kept; a sync
   * applied again), the file finds its own offboarding instead of refusing its leavers.
   */
  plan(file: LeaversFile, options: { api: SmartsheetApi; config: Pick<Config, 'guardrails' | 'offboarding'>; options: OffboardingOptions }): Promise<OffboardingPlan>;
  /** The id of the offboarding of `file` with `options`, queued or not: the same file and options are one offboarding. */
  idOf(file: Pick<LeaversFile, 'path' | 'sha256' | 'format'>, options: OffboardingOptions): string;
  submit(plan: OffboardingPlan): Promise<SubmittedOffboarding>;
  status(workflowId: string): Promise<OffboardingStatus | undefined>;
  /** Undo before the removal, per user or for the whole offboarding; undefined when there is no such offboarding. */
  undo(workflowId: string, request: UndoRequest): Promise<UndoResult[] | undefined>;
  /** Every leaver of every open offboarding whom undo can still act on (for the dashboard). */
  listHolds(): Promise<HoldView[]>;
  reportRows(workflowId: string): Promise<OffboardingReportRow[] | undefined>;
  /**
   * True when nothing of this offboarding is due by now: every leaver ended or waits for a future step, and every
   * queued reactivation has its outcome. `offboard` and `undo` run workers until then. For a workflow of another
   * lifecycle of the engine: nothing of it is due by now.
   */
  settled(workflowId: string): Promise<boolean>;
  /**
   * `seatflow retry` of a step batch (`<offboarding>-deactivate|remove|reactivate`): failed steps run again and the
   * leaver's phase follows (see retry-step-batch.ts). Undefined when the id names no step batch of an offboarding.
   */
  retry(batchId: string): Promise<StepBatchRetry | undefined>;
  /** A step batch of this offboarding stopped on a refused token (its rows wait for `seatflow retry BATCH`), if any. */
  stoppedBatch(workflowId: string): Promise<string | undefined>;
  /** Runs now the delayed steps due by `atMs` on the service clock (the worker's sweep; tests that move the clock). */
  promoteDue(atMs: number): Promise<number>;
  /** The steps to come of one workflow, or of every open one of every lifecycle, in due order (`seatflow steps`). */
  steps(options?: { workflowId?: string; dueOnly?: boolean }): Promise<StepView[]>;
  /** Runs steps of a workflow now (`seatflow steps run`); undefined when there is no such workflow. */
  runNow(workflowId: string, request: RunNowRequest): Promise<RunNowResult[] | undefined>;
  /** One step worker for every lifecycle of the engine. */
  startStepWorker(options: StepWorkerOptions): StepWorkerHandle;
  close(): Promise<void>;
}

/** The offboarding workflow over one Redis, assembled on the engine; the composition roots (CLI, control API) build one. */
export function createOffboardingSystem(options: OffboardingSystemOptions): OffboardingSystem {
  const engine = createWorkflowEngine(
    { batches: options.batches, redis: options.redis, prefix: options.prefix, target: options.target, sim: options.sim, logger: options.logger, pollMs: options.offboarding.stepPollMs, dueSweepMs: options.offboarding.dueSweepMs, ...(options.clock === undefined ? {} : { clock: options.clock }) },
    [createOffboardingLifecycle, ...(options.lifecycles ?? [])],
  );
  const context = offboardingContextOf(engine.context);
  const { store, clock } = context;
  const idOf = (file: Pick<LeaversFile, 'path' | 'sha256' | 'format'>, offboardingOptions: OffboardingOptions) =>
    workflowIdOf({ source: { path: file.path, sha256: file.sha256, format: file.format }, options: offboardingOptions }, options.target);

  return {
    store,
    context,
    engine,
    async plan(file, planOptions) {
      await clock.refresh?.();
      const own = idOf(file, planOptions.options);
      const leavingElsewhere = async (userId: number) => {
        const owner = await store.leavingIn(userId);
        return owner !== undefined && leavingOwnerOf(owner)?.workflowId === own ? undefined : owner;
      };
      return planOffboarding(file, { ...planOptions, now: clock.now(), leavingElsewhere });
    },
    idOf,
    async submit(plan) {
      await clock.refresh?.();
      return submitOffboarding(context, plan, { target: options.target });
    },
    async status(workflowId) {
      const workflow = await store.get(workflowId);
      if (workflow === undefined) return undefined;
      await clock.refresh?.();
      const leavers = await store.leavers(workflowId);
      const rows = await rowsOfPersons(options.batches.store, offboardingStepBatches(workflow), leavers.map((leaver) => leaver.row));
      return offboardingStatus(workflow, leavers, clock.now(), await context.stepQueue.getWorkersCount().catch(() => 0), rows);
    },
    async undo(workflowId, request) {
      await clock.refresh?.();
      const workflow = await store.get(workflowId);
      return workflow === undefined ? undefined : undoOffboarding(context, workflow, request);
    },
    async listHolds() {
      await clock.refresh?.();
      const holds: HoldView[] = [];
      // Every open offboarding, however old: a long hold outlives the newest N.
      for (const workflow of await store.open()) {
        for (const leaver of await store.leavers(workflow.id)) {
          if (leaver.phase === 'scheduled' || leaver.phase === 'holding') holds.push({ workflowId: workflow.id, ...leaverView(leaver, workflow, clock.now()) });
        }
      }
      return holds;
    },
    async reportRows(workflowId) {
      const workflow = await store.get(workflowId);
      if (workflow === undefined) return undefined;
      await clock.refresh?.();
      return offboardingReportRows(workflow, await store.leavers(workflowId), options.batches.store, new Date(clock.now()));
    },
    async settled(workflowId) {
      const workflow = await store.get(workflowId);
      // A workflow of another lifecycle (joiners, movers) tracks its steps: one count says it.
      if (workflow === undefined) return (await engine.context.records.get(workflowId)) === undefined || engine.nothingDue(workflowId);
      // One count of the steps due by now, whatever the number of leavers (a step leaves the index when it ends).
      if (workflow.tracksOpen === true) return engine.nothingDue(workflowId);
      await clock.refresh?.();
      const now = clock.now();
      const leavers = await store.leavers(workflowId);
      for (const leaver of leavers) {
        if (leaver.phase === 'scheduled' && leaver.leaveAt <= now) return false;
        if (leaver.phase === 'holding' && (leaver.holdUntil ?? 0) <= now) return false;
        if (leaver.phase === 'deactivating' || leaver.phase === 'removing') return false;
        if (leaver.phase === 'undone' && !(await options.batches.store.hasOutcome(workflow.reactivateBatch, leaver.row))) return false;
      }
      // The last leaver's end is written before the workflow is closed: until then its step is still at work.
      return !(workflow.state === 'open' && leavers.every((leaver) => !OPEN_PHASES.has(leaver.phase)));
    },
    async retry(batchId) {
      await clock.refresh?.();
      const named = stepBatchOf(batchId);
      const workflow = named === undefined ? undefined : await store.get(named.workflowId);
      return named === undefined || workflow === undefined ? undefined : retryStepBatch(context, options.batches.control, workflow, named.step);
    },
    async stoppedBatch(workflowId) {
      const workflow = await store.get(workflowId);
      if (workflow === undefined) return undefined;
      for (const batchId of [workflow.deactivateBatch, workflow.removeBatch, workflow.reactivateBatch]) {
        if ((await options.batches.store.get(batchId))?.state === 'stopped') return batchId;
      }
      return undefined;
    },
    promoteDue: (atMs) => engine.promoteDue(atMs),
    steps: (stepOptions) => engine.steps(stepOptions),
    async runNow(workflowId, request) {
      if ((await engine.context.records.get(workflowId)) === undefined) return undefined;
      return engine.runNow(workflowId, request);
    },
    startStepWorker: (workerOptions) => engine.startStepWorker(workerOptions),
    close: () => engine.close(),
  };
}
