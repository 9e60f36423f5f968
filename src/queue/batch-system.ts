import { Queue } from 'bullmq';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Clock } from '../core/clock.js';
import type { ChangeWitness } from './events-since-attempt.js';
import type { Logger } from '../core/logger.js';
import type { BatchPlan } from '../plan/planned-row.js';
import { createBatchControl, type BatchControl } from './batch-control.js';
import { createBatchStore, type BatchRecord, type BatchStore, type BatchStoreHooks } from './batch-store.js';
import type { JobRegistry } from './job-type.js';
import { createQueueKeys, type QueueKeys } from './queue-keys.js';
import { startLostRowSweep } from './lost-rows.js';
import { rowsParkedBeyond, type ParkedRow } from './parked-rows.js';
import { closeBullmq } from './redis/close-bullmq.js';
import type { RedisHandle } from './redis/open-redis.js';
import { replicatedSubmission } from './redis/replicated-submission.js';
import { createReplicatedWrites, type ReplicatedWrites } from './redis/replicated-write.js';
import { createRequestBudget, type RequestBudget, type RequestBudgetOptions } from './request-budget.js';
import type { RetryPolicy } from './retry-policy.js';
import type { RowJobData } from './row-job.js';
import { createRowProcessor } from './row-processor.js';
import { createRowWaker } from './row-waiter.js';
import { createTokenCheck } from './token-check.js';
import { batchIdOf, queueNameOf, submitBatch, type SubmitOptions, type SubmitResult } from './submit-batch.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

export interface BatchSystemOptions {
  redis: RedisHandle;
  /** config `redis.queuePrefix`. */
  prefix: string;
  /** The API base URL, or `sim:<instance>`; names the queue, so workers only take rows meant for their service. */
  target: string;
  sim: boolean;
  logger: Logger;
  /** Observers of recorded outcomes (metrics); they must not throw. */
  hooks?: BatchStoreHooks;
}

export interface StartWorkersOptions {
  api: SmartsheetApi;
  registry: JobRegistry;
  budget: RequestBudget;
  concurrency: number;
  policy: RetryPolicy;
  /** The longest one request of `api` can take (`longestRequestMs` of its timeouts). */
  requestSettleMs: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** How often the workers look for rows lost in a Redis failover (lost-rows.ts). Default 30 s. */
  lostRowCheckMs?: number;
  /** Read each row's state before its change, for `seatflow revert` (config governance.recordStateBefore). Default true. */
  recordStateBefore?: boolean;
  /** The service's clock: no row of a lifecycle step runs before its due instant on it. Default this machine's. */
  serviceClock?: Clock;
  /** The service's events, read after a lost answer (events-since-attempt.ts); absent: the confirm read alone decides. */
  witness?: ChangeWitness | undefined;
  /** How long a row whose answer was lost, read as not done, waits for those events (config events.lostAnswerWaitSeconds). */
  eventWaitMs?: number;
}

export interface BatchSystem {
  keys: QueueKeys;
  store: BatchStore;
  control: BatchControl;
  /** The queue of this system's target. */
  queue: Queue<RowJobData>;
  submit(plan: BatchPlan, options?: Pick<SubmitOptions, 'options' | 'identity'>): Promise<SubmitResult>;
  /** Rows of the batch parked as delayed jobs due more than `boundMs` from now (Redis time): see `rowsParkedBeyond`. */
  rowsParkedBeyond(batch: BatchRecord, boundMs: number): Promise<ParkedRow[]>;
  budget(options: Pick<RequestBudgetOptions, 'accessToken' | 'service' | 'rate'>): RequestBudget;
  startWorkers(options: StartWorkersOptions): WorkerPool;
  /** Closes the queues this system opened (not the Redis handle, which the caller owns). */
  close(): Promise<void>;
}

/** The queue machinery over one Redis, assembled; the composition roots (CLI, control API) build one of these. */
export function createBatchSystem(options: BatchSystemOptions): BatchSystem {
  const keys = createQueueKeys(options.prefix);
  const queues = new Map<string, Queue<RowJobData>>();
  const queueFor = (name: string): Queue<RowJobData> => {
    let queue = queues.get(name);
    if (queue === undefined) {
      queue = new Queue<RowJobData>(name, { connection: options.redis.bullmqConnection(), prefix: options.prefix });
      queue.on('error', (error) => options.logger.debug({ err: error }, 'queue connection error'));
      queues.set(name, queue);
    }
    return queue;
  };
  // A row's end wakes the step waiting for it, on the step's queue (same Redis and prefix), opened when first needed.
  const store = createBatchStore(options.redis.client, keys, options.hooks, createRowWaker(queueFor, options.logger));
  let replicatedSubmissions: ReplicatedWrites | undefined;
  const submissions = (): ReplicatedWrites =>
    (replicatedSubmissions ??= createReplicatedWrites({ redis: options.redis.client, replicas: options.redis.replicaAcks, logger: options.logger, what: 'batch submission' }));
  // Opened on first use: status and report never open a BullMQ connection.
  const ownQueue = (): Queue<RowJobData> => queueFor(queueNameOf(options.target));
  const control = createBatchControl({ redis: options.redis.client, keys, store, queueFor });
  return {
    keys,
    store,
    control,
    get queue() {
      return ownQueue();
    },
    rowsParkedBeyond: (batch, boundMs) => rowsParkedBeyond(options.redis.client, options.prefix, batch, boundMs),
    submit(plan, submitOptions) {
      const startedAt = Date.now();
      return replicatedSubmission({
        writes: submissions(),
        // WAIT asks the node of the batch's record (on a cluster, other keys of the batch share its slot).
        routeKey: keys.batch(batchIdOf(submitOptions?.identity ?? plan.source.sha256, options.target, submitOptions?.options)),
        submit: () => submitBatch(ownQueue(), store, plan, { ...submitOptions, target: options.target, sim: options.sim }),
        // submitBatch dates the record on this clock.
        madeByThisCall: (answer) => Date.parse(answer.batch.createdAt) >= startedAt,
      });
    },
    budget: (budgetOptions) => createRequestBudget({ ...budgetOptions, redis: options.redis.client, keys, logger: options.logger, replicaAcks: options.redis.replicaAcks }),
    startWorkers(workerOptions) {
      const processor = createRowProcessor({
        redis: options.redis.client,
        keys,
        store,
        queue: ownQueue(),
        registry: workerOptions.registry,
        api: workerOptions.api,
        budget: workerOptions.budget,
        policy: workerOptions.policy,
        tokenCheck: createTokenCheck({ redis: options.redis.client, keys, api: workerOptions.api, logger: options.logger }),
        requestSettleMs: workerOptions.requestSettleMs,
        logger: options.logger,
        sim: options.sim,
        replicaAcks: options.redis.replicaAcks,
        ...(workerOptions.recordStateBefore === undefined ? {} : { recordStateBefore: workerOptions.recordStateBefore }),
        ...(workerOptions.serviceClock === undefined ? {} : { serviceClock: workerOptions.serviceClock }),
        ...(workerOptions.witness === undefined ? {} : { witness: workerOptions.witness }),
        ...(workerOptions.eventWaitMs === undefined ? {} : { eventWaitMs: workerOptions.eventWaitMs }),
      });
      const stopSweep = startLostRowSweep({ queue: ownQueue(), store, logger: options.logger, intervalMs: workerOptions.lostRowCheckMs ?? 30_000 });
      return createWorkerPool({
        beforeClose: stopSweep,
        connection: options.redis.bullmqConnection(),
        prefix: options.prefix,
        queueName: ownQueue().name,
        concurrency: workerOptions.concurrency,
        processor,
        store,
        logger: options.logger,
        ...(workerOptions.lockDurationMs !== undefined ? { lockDurationMs: workerOptions.lockDurationMs } : {}),
        ...(workerOptions.stalledIntervalMs !== undefined ? { stalledIntervalMs: workerOptions.stalledIntervalMs } : {}),
      });
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => closeBullmq(q)));
    },
  };
}
