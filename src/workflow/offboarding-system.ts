import { Queue, Worker } from 'bullmq';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { BatchSystem } from '../queue/batch-system.js';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import type { RedisHandle } from '../queue/redis/open-redis.js';
import { stepOf, OPEN_PHASES } from './leaver-state.js';
import { endSteps } from './leaver-ends.js';
import { pendingSteps, runStepsNow, type RunNowRequest, type RunNowResult, type StepView } from './pending-steps.js';
import { leaverView, offboardingStatus, type LeaverView, type OffboardingStatus } from './offboarding-status.js';
import { offboardingReportRows, type OffboardingReportRow } from './offboarding-report.js';
import { planOffboarding, type OffboardingOptions, type OffboardingPlan } from './plan-offboarding.js';
import type { LeaversFile } from './read-leavers.js';
import { retryStepBatch, stepBatchOf, type StepBatchRetry } from './retry-step-batch.js';
import { createStepIndex } from './step-index.js';
import { createStepProcessor } from './step-processor.js';
import { stepJobId, stepQueueNameOf, type StepJobData } from './step-job.js';
import { submitOffboarding, type SubmittedOffboarding } from './submit-offboarding.js';
import { undoOffboarding, type UndoRequest, type UndoResult } from './undo-offboarding.js';
import type { WorkflowContext } from './workflow-context.js';
import { createWorkflowStore, type WorkflowStore } from './workflow-store.js';

export interface OffboardingSystemOptions {
  /** The batch machinery of the same Redis, prefix and target: steps run their rows through it. */
  batches: BatchSystem;
  redis: RedisHandle;
  prefix: string;
  target: string;
  sim: boolean;
  logger: Logger;
  offboarding: Config['offboarding'];
  /**
   * The service's clock (service-clock.ts): due times and holds are taken on it. Default the system clock; tests pass
   * the reference server's, so due times and holds move with it.
   */
  clock?: Clock;
}

export interface StepWorkerOptions {
  api: SmartsheetApi;
  concurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /**
   * How often the worker promotes the steps due on the service clock that BullMQ still holds as delayed (their delay
   * was reckoned when they were queued, and the service's clock may since have moved: a rehearsal that moves the
   * reference server's clock, a machine clock corrected). Default config offboarding.dueSweepMs.
   */
  sweepMs?: number;
}

/** A hold as the dashboard lists it: a leaver undo can still act on. */
export interface HoldView extends LeaverView {
  workflowId: string;
}

export interface OffboardingSystem {
  store: WorkflowStore;
  context: WorkflowContext;
  plan(file: LeaversFile, options: { api: SmartsheetApi; config: Pick<Config, 'guardrails' | 'offboarding'>; options: OffboardingOptions }): Promise<OffboardingPlan>;
  submit(plan: OffboardingPlan): Promise<SubmittedOffboarding>;
  status(workflowId: string): Promise<OffboardingStatus | undefined>;
  /** Undo before the removal, per user or for the whole offboarding; undefined when there is no such offboarding. */
  undo(workflowId: string, request: UndoRequest): Promise<UndoResult[] | undefined>;
  /** Every leaver of every open offboarding whom undo can still act on (for the dashboard). */
  listHolds(): Promise<HoldView[]>;
  reportRows(workflowId: string): Promise<OffboardingReportRow[] | undefined>;
  /**
   * True when nothing of this offboarding is due by now: every leaver ended or waits for a future step, and every
   * queued reactivation has its outcome. `offboard` and `undo` run workers until then.
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
  /** The steps to come of one offboarding, or of every open one, in due order (`seatflow steps`). */
  steps(options?: { workflowId?: string; dueOnly?: boolean }): Promise<StepView[]>;
  /** Runs steps of an offboarding now (`seatflow steps run`); undefined when there is no such offboarding. */
  runNow(workflowId: string, request: RunNowRequest): Promise<RunNowResult[] | undefined>;
  startStepWorker(options: StepWorkerOptions): { worker: Worker<StepJobData>; close(graceMs: number): Promise<void> };
  close(): Promise<void>;
}

/** The offboarding workflow over one Redis, assembled; the composition roots (CLI, control API) build one. */
export function createOffboardingSystem(options: OffboardingSystemOptions): OffboardingSystem {
  const store = createWorkflowStore(options.redis.client, options.batches.keys, options.target);
  const clock = options.clock ?? systemClock;
  let stepQueue: Queue<StepJobData> | undefined;
  const queue = (): Queue<StepJobData> => {
    if (stepQueue === undefined) {
      stepQueue = new Queue<StepJobData>(stepQueueNameOf(options.target), { connection: options.redis.bullmqConnection(), prefix: options.prefix });
      stepQueue.on('error', (error) => options.logger.debug({ err: error }, 'step queue connection error'));
    }
    return stepQueue;
  };
  const context: WorkflowContext = {
    store,
    batches: options.batches.store,
    get rowsQueue() {
      return options.batches.queue;
    },
    get stepQueue() {
      return queue();
    },
    steps: createStepIndex(options.redis.client, options.batches.keys),
    clock,
    sim: options.sim,
    logger: options.logger,
    pollMs: options.offboarding.stepPollMs,
  };
  const openWorkflows = async () => (await store.list(200)).filter((workflow) => workflow.state === 'open' || workflow.tracksOpen === true);
  const workers: { close(graceMs: number): Promise<void> }[] = [];

  const system: OffboardingSystem = {
    store,
    context,
    async plan(file, planOptions) {
      await clock.refresh?.();
      return planOffboarding(file, { ...planOptions, now: clock.now(), leavingElsewhere: (userId) => store.leavingIn(userId) });
    },
    async submit(plan) {
      await clock.refresh?.();
      return submitOffboarding(context, plan, { target: options.target });
    },
    async status(workflowId) {
      const workflow = await store.get(workflowId);
      if (workflow === undefined) return undefined;
      await clock.refresh?.();
      return offboardingStatus(workflow, await store.leavers(workflowId), clock.now(), await queue().getWorkersCount().catch(() => 0));
    },
    async undo(workflowId, request) {
      await clock.refresh?.();
      const workflow = await store.get(workflowId);
      return workflow === undefined ? undefined : undoOffboarding(context, workflow, request);
    },
    async listHolds() {
      await clock.refresh?.();
      const holds: HoldView[] = [];
      for (const workflow of await store.list(200)) {
        if (workflow.state !== 'open') continue;
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
      if (workflow === undefined) return true;
      await clock.refresh?.();
      const now = clock.now();
      // One count of the steps due by now, whatever the number of leavers (a step leaves the index when it ends).
      if (workflow.tracksOpen === true) return (await context.steps.dueCount(workflowId, now)) === 0;
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
    async promoteDue(atMs) {
      let promoted = 0;
      for (const workflow of await openWorkflows()) {
        // Only steps no worker has started: each is looked at about once after it falls due, whatever the backlog.
        for (const step of await context.steps.dueWaiting(workflow.id, atMs, 1000)) {
          const job = await queue().getJob(stepJobId(workflow.id, step.row, step.step));
          const state = job === undefined ? undefined : await job.getState();
          if (job !== undefined && state === 'delayed' && (job.data.polls ?? 0) === 0) {
            await job.promote().catch(() => undefined);
            promoted += 1;
          }
          // Promoted, handed out by BullMQ already, or without a job (`seatflow steps` shows it as such): done here.
          await context.steps.started(workflow.id, step.row, step.step);
        }
      }
      return promoted;
    },
    async steps(stepOptions = {}) {
      await clock.refresh?.();
      const workflows = stepOptions.workflowId === undefined ? await openWorkflows() : [await store.get(stepOptions.workflowId)];
      const views: StepView[] = [];
      for (const workflow of workflows) if (workflow !== undefined) views.push(...(await pendingSteps(context, workflow, stepOptions)));
      return views.sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    },
    async runNow(workflowId, request) {
      const workflow = await store.get(workflowId);
      if (workflow === undefined) return undefined;
      await clock.refresh?.();
      return runStepsNow(context, workflow, request);
    },
    startStepWorker(workerOptions) {
      const processor = createStepProcessor({ ...context, stepQueue: queue(), rowsQueue: options.batches.queue, api: workerOptions.api });
      const worker = new Worker<StepJobData>(stepQueueNameOf(options.target), processor, {
        connection: options.redis.bullmqConnection(),
        prefix: options.prefix,
        concurrency: workerOptions.concurrency ?? 4,
        lockDuration: workerOptions.lockDurationMs ?? 15_000,
        stalledInterval: workerOptions.stalledIntervalMs ?? 5_000,
        maxStalledCount: 10,
      });
      worker.on('error', (error) => options.logger.warn({ err: error }, 'step worker connection error'));
      // BullMQ's delays run on this machine's clock, reckoned when a step was queued; due times are the service's.
      const sweep = setInterval(() => {
        void (async () => {
          await clock.refresh?.();
          await system.promoteDue(clock.now());
        })().catch((error: unknown) => options.logger.debug({ err: error }, 'could not promote the steps due on the service clock'));
      }, workerOptions.sweepMs ?? options.offboarding.dueSweepMs);
      sweep.unref();
      worker.on('failed', (job, error) => {
        if (job === undefined || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        // BullMQ gave up on this step: the leaver ends failed, so status says so instead of showing it overdue forever.
        void endGivenUp(job.data, error.message).catch((recordError: unknown) => options.logger.error({ err: recordError }, 'could not record a failed step'));
      });
      const handle = {
        worker,
        close: (graceMs: number) => {
          clearInterval(sweep);
          return closeBullmq(worker, { graceMs });
        },
      };
      workers.push(handle);
      return handle;
    },
    async close() {
      await Promise.all(workers.splice(0).map((worker) => worker.close(2000)));
      if (stepQueue !== undefined) await closeBullmq(stepQueue);
    },
  };

  async function endGivenUp(data: StepJobData, message: string): Promise<void> {
    const workflow = await store.get(data.workflowId);
    if (workflow === undefined) return;
    const reason = `the ${data.step} step gave up: ${message}`;
    const failed = await store.update(data.workflowId, data.row, (current) =>
      OPEN_PHASES.has(current.phase) && current.phase !== 'removing' && current.phase !== 'deactivating'
        ? { ...current, phase: 'failed', reason, steps: [...current.steps, stepOf(data.step, 'failed', new Date(clock.now()), reason)] }
        : undefined,
    );
    await context.steps.done(data.workflowId, data.row, data.step);
    if (failed === undefined) return;
    const end = { outcome: 'failed' as const, message: reason };
    await endSteps(context, workflow, failed, data.step === 'deactivate' ? { deactivate: end, remove: { outcome: 'skipped', message: 'not removed: an earlier step failed' }, reactivate: { outcome: 'skipped', message: 'not undone' } } : { remove: end, reactivate: { outcome: 'skipped', message: 'not undone' } });
  }

  return system;
}
