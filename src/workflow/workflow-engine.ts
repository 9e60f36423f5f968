import { readableOnly } from '../core/unreadable-record.js';
import { forEachLimited } from '../core/for-each-limited.js';
import { Queue, Worker } from 'bullmq';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { surelyPassed, systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { BatchSystem } from '../queue/batch-system.js';
import { closeBullmq } from '../queue/redis/close-bullmq.js';
import { logBullmqError } from '../queue/redis/connection-lost.js';
import type { RedisHandle } from '../queue/redis/open-redis.js';
import { createReplicatedWrites } from '../queue/redis/replicated-write.js';
import { lifecycleOf, type Lifecycle, type LifecycleRegistry } from './lifecycle.js';
import { workflowBaseSchema, type ChangeElsewhere, type WorkflowBase } from './workflow-shapes.js';
import { recheckChangedElsewhere, type ChangedElsewhereResult } from './changed-elsewhere.js';
import { pendingSteps, runStepsNow, type RunNowRequest, type RunNowResult, type StepView } from './pending-steps.js';
import { createRecordStore } from './record-store.js';
import { startDueSweep } from './due-sweep.js';
import { createStepIndex } from './step-index.js';
import { createStepRunner } from './step-runner.js';
import { stepJobId, stepJobOptions, stepQueueNameOf, type StepJobData } from './step-job.js';
import type { EngineContext } from './workflow-context.js';

/** Workflows looked at (newest first) for steps to come, besides the set of open ones. */
const RECENT_WORKFLOWS = 200;
/** Due steps a sweep looks at side by side: their commands are in flight together on the queue's Redis connection. */
const SWEEP_CONCURRENCY = 16;

export interface WorkflowEngineOptions {
  /** The batch machinery of the same Redis, prefix and target: steps run their rows through it. */
  batches: BatchSystem;
  redis: RedisHandle;
  prefix: string;
  target: string;
  sim: boolean;
  logger: Logger;
  /** config offboarding.stepPollMs: the first wait before a step looks again for its row's outcome. */
  pollMs: number;
  /** config offboarding.dueSweepMs: how often a step worker promotes the steps due on the service clock. */
  dueSweepMs: number;
  /**
   * The service's clock (service-clock.ts): due times are taken on it. Default the system clock; tests pass the
   * reference server's, so due times move with it.
   */
  clock?: Clock;
}

/** Builds a lifecycle over the engine's context (its stores share the engine's Redis and batches). */
export type LifecycleFactory = (context: EngineContext) => Lifecycle;

export interface StepWorkerOptions {
  api: SmartsheetApi;
  concurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /**
   * How often the worker promotes the steps due on the service clock that BullMQ still holds as delayed (their delay
   * was reckoned when they were queued, and the service's clock may since have moved: a rehearsal that moves the
   * reference server's clock, a machine clock corrected). Default the engine's dueSweepMs.
   */
  sweepMs?: number;
}

export interface StepWorkerHandle {
  worker: Worker<StepJobData>;
  close(graceMs: number): Promise<void>;
}

/** The timed-step engine over one Redis and target, with the lifecycles it runs. */
export interface WorkflowEngine {
  context: EngineContext;
  lifecycles: LifecycleRegistry;
  /** The lifecycle of a workflow, or undefined when there is no such workflow. */
  lifecycleOfWorkflow(workflowId: string): Promise<{ workflow: WorkflowBase; lifecycle: Lifecycle } | undefined>;
  /** Workflows of the target (any lifecycle) that may have a step to come. */
  activeWorkflows(): Promise<WorkflowBase[]>;
  /** A user changed outside seatflow (an event): its open people are re-checked at once (changed-elsewhere.ts). */
  changedElsewhere(userId: number, change: ChangeElsewhere): Promise<ChangedElsewhereResult[]>;
  /** Runs now the delayed steps due by `atMs` on the service clock (the worker's sweep; tests that move the clock). */
  promoteDue(atMs: number): Promise<number>;
  /** The steps to come of one workflow, or of every open one of every lifecycle, in due order (`seatflow steps`). */
  steps(options?: { workflowId?: string; dueOnly?: boolean; lifecycle?: string }): Promise<StepView[]>;
  /** Runs steps of a workflow now (`seatflow steps run`); undefined when there is no such workflow. */
  runNow(workflowId: string, request: RunNowRequest): Promise<RunNowResult[] | undefined>;
  /** True when nothing of this workflow is due by now (one count of its step index). */
  nothingDue(workflowId: string): Promise<boolean>;
  /** One step worker for every lifecycle: the step queue of the target is one queue. */
  startStepWorker(options: StepWorkerOptions): StepWorkerHandle;
  close(): Promise<void>;
}

/**
 * The engine every lifecycle runs on: a person's steps are delayed BullMQ jobs on the target's step queue, due on the
 * service clock, indexed by due time per workflow (step-index.ts); a worker sweep promotes those due on the service
 * clock; the steps themselves are the lifecycles' (lifecycle.ts), and their changes rows of step batches run by the
 * existing job types.
 */
export function createWorkflowEngine(options: WorkflowEngineOptions, factories: readonly LifecycleFactory[]): WorkflowEngine {
  const clock = options.clock ?? systemClock;
  const redis = options.redis.client;
  const keys = options.batches.keys;
  let stepQueue: Queue<StepJobData> | undefined;
  const queue = (): Queue<StepJobData> => {
    if (stepQueue === undefined) {
      stepQueue = new Queue<StepJobData>(stepQueueNameOf(options.target), { connection: options.redis.bullmqConnection(), prefix: options.prefix });
      stepQueue.on('error', (error) => options.logger.debug({ err: error }, 'step queue connection error'));
    }
    return stepQueue;
  };
  const context: EngineContext = {
    redis,
    keys,
    target: options.target,
    records: createRecordStore(redis, keys, workflowBaseSchema),
    replicated: createReplicatedWrites({ redis, replicas: options.redis.replicaAcks, logger: options.logger, what: 'workflow state' }),
    batches: options.batches.store,
    get rowsQueue() {
      return options.batches.queue;
    },
    get stepQueue() {
      return queue();
    },
    steps: createStepIndex(redis, keys),
    clock,
    sim: options.sim,
    logger: options.logger,
    pollMs: options.pollMs,
  };
  const lifecycles = new Map<string, Lifecycle>();
  for (const factory of factories) {
    const lifecycle = factory(context);
    lifecycles.set(lifecycle.name, lifecycle);
  }
  const workers: StepWorkerHandle[] = [];

  // Each unreadable workflow once per process: the sweep reads them every few seconds.
  const reported = new Set<string>();
  const reportUnreadable = (error: Error): void => {
    if (reported.has(error.message)) return;
    reported.add(error.message);
    options.logger.error({ err: error }, 'a workflow record is unreadable: its steps are left out; the others go on');
  };
  const activeWorkflows = async (): Promise<WorkflowBase[]> => {
    const ids = new Set([...(await redis.smembers(keys.workflowsOpen)), ...(await redis.zrevrange(keys.workflows, 0, RECENT_WORKFLOWS - 1))]);
    const records = await readableOnly([...ids].map((id) => context.records.get(id)), reportUnreadable);
    // A finished workflow can still have a step to come: the reactivation an undo queued for its last leaver. Other
    // targets' workflows have their steps on other queues.
    return records.filter((record): record is WorkflowBase => record !== undefined && record.target === options.target && (record.state === 'open' || record.tracksOpen === true) && lifecycles.has(record.lifecycle ?? 'offboarding'));
  };

  const engine: WorkflowEngine = {
    context,
    lifecycles,
    async lifecycleOfWorkflow(workflowId) {
      const workflow = await context.records.get(workflowId);
      return workflow === undefined ? undefined : { workflow, lifecycle: lifecycleOf(lifecycles, workflow) };
    },
    activeWorkflows,
    changedElsewhere: async (userId, change) => recheckChangedElsewhere(await activeWorkflows(), lifecycles, userId, change),
    async promoteDue(atMs) {
      let promoted = 0;
      for (const workflow of await activeWorkflows()) {
        // The steps at their look time: not started yet (their due instant), started (a while on, in case their worker
        // dropped them), or waiting again (their retry, their next look at their row). The sweep acts on their jobs and
        // never writes that list: the workers do (step-runner.ts). What the sweep reads of a job is already old when it would write: a
        // step it promoted, or saw a worker hold, may be one that a worker whose clock is behind is sending back to
        // wait for its due instant at that moment (and putting back on the list); taken off the list then, it would
        // wait as a delayed job of hours of wall time that no sweep promotes.
        // Each step is looked at on its own (three round trips at most), so several at once: one by one, a sweep of a
        // few hundred due steps took 8 to 20 s on a loaded machine, and those steps waited for it.
        await forEachLimited(await context.steps.dueWaiting(workflow.id, atMs, 1000), SWEEP_CONCURRENCY, async (step) => {
          const job = await queue().getJob(stepJobId(workflow.id, step.row, step.step));
          if (job === undefined) {
            // Due and never started, yet no job holds it: lost with a Redis failover (its job removed on one master,
            // its start never recorded on the other) or removed by an undo. Queued again, it runs as a step run twice
            // does: it reads the person's phase and does only what that phase still needs (nothing for an undone one).
            const data: StepJobData = { workflowId: workflow.id, row: step.row, step: step.step, dueAt: step.dueAt };
            await queue().add(step.step, data, stepJobOptions(data, atMs));
            promoted += 1;
          } else {
            const state = await job.getState();
            // A step looking again for its row is listed at the look's time (step-runner.ts): due, it is promoted too.
            if (state === 'delayed') {
              options.logger.info({ job: job.id, dueAt: new Date(step.dueAt).toISOString() }, 'due on the service clock: step promoted');
              await job.promote().catch(() => undefined);
              promoted += 1;
            } else if (state === 'failed') {
              // Still listed, so nobody recorded the end of the person's step: BullMQ failed the job without telling a
              // worker (stalled past its limit: its workers kept dying), or the worker that was recording it died.
              // Run again, the step does what the person's phase still needs; a real failure ends it failed then.
              options.logger.warn({ job: job.id, reason: job.failedReason }, 'a due step whose job failed with nothing recorded runs again');
              await job.retry('failed').catch(() => undefined);
              promoted += 1;
            }
          }
          // Anything else is a worker's (active) or about to be (waiting): left to it, and looked at again next sweep.
        });
      }
      return promoted;
    },
    async steps(stepOptions = {}) {
      await clock.refresh?.();
      const workflows = stepOptions.workflowId === undefined ? await activeWorkflows() : [await context.records.get(stepOptions.workflowId)];
      const views: StepView[] = [];
      for (const workflow of workflows) {
        if (workflow === undefined || !lifecycles.has(workflow.lifecycle ?? 'offboarding')) continue;
        if (stepOptions.lifecycle !== undefined && (workflow.lifecycle ?? 'offboarding') !== stepOptions.lifecycle) continue;
        views.push(...(await pendingSteps(context, lifecycleOf(lifecycles, workflow), workflow, stepOptions)));
      }
      return views.sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    },
    async runNow(workflowId, request) {
      const found = await engine.lifecycleOfWorkflow(workflowId);
      if (found === undefined) return undefined;
      await clock.refresh?.();
      return runStepsNow(context, found.lifecycle, found.workflow, request);
    },
    async nothingDue(workflowId) {
      await clock.refresh?.();
      return (await context.steps.dueCount(workflowId, clock.now())) === 0;
    },
    startStepWorker(workerOptions) {
      const processor = createStepRunner(context, lifecycles, workerOptions.api);
      const worker = new Worker<StepJobData>(stepQueueNameOf(options.target), processor, {
        connection: options.redis.bullmqConnection(),
        prefix: options.prefix,
        concurrency: workerOptions.concurrency ?? 4,
        lockDuration: workerOptions.lockDurationMs ?? 15_000,
        stalledInterval: workerOptions.stalledIntervalMs ?? 5_000,
        maxStalledCount: 10,
      });
      worker.on('error', logBullmqError(options.logger, 'step worker'));
      // BullMQ's delays run on this machine's clock, reckoned when a step was queued; due times are the service's.
      const stopSweep = startDueSweep({
        run: async () => {
          await clock.refresh?.();
          await engine.promoteDue(surelyPassed(clock));
        },
        everyMs: workerOptions.sweepMs ?? options.dueSweepMs,
        logger: options.logger,
      });
      worker.on('failed', (job, error) => {
        if (job === undefined || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        // BullMQ gave up on this step: the person ends failed, so status says so instead of showing it overdue forever.
        void gaveUp(job.data, error.message).catch((recordError: unknown) => options.logger.error({ err: recordError }, 'could not record a failed step'));
      });
      const handle: StepWorkerHandle = {
        worker,
        close: (graceMs: number) => {
          stopSweep();
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

  async function gaveUp(data: StepJobData, message: string): Promise<void> {
    const found = await engine.lifecycleOfWorkflow(data.workflowId);
    if (found === undefined) return;
    await context.steps.done(data.workflowId, data.row, data.step);
    await found.lifecycle.gaveUp(data, `the ${data.step} step gave up: ${message}`);
  }

  return engine;
}
