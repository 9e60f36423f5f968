import { DelayedError, UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import { isApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Logger } from '../core/logger.js';
import type { BatchStore } from './batch-store.js';
import type { JobContext, JobRegistry, JobResult } from './job-type.js';
import type { QueueKeys } from './queue-keys.js';
import { luaScript, type RedisClient, type ReplicaAcks } from './redis/lua-script.js';
import { isRedisFailure } from './redis/redis-failure.js';
import type { RequestBudget } from './request-budget.js';
import { decideRetry, type RetryPolicy } from './retry-policy.js';
import type { RowJobData } from './row-job.js';
import type { RowOutcome } from './row-outcome.js';
import { rowIdentity } from './submit-batch.js';

export interface RowProcessorOptions {
  redis: RedisClient;
  keys: QueueKeys;
  store: BatchStore;
  queue: Queue<RowJobData>;
  registry: JobRegistry;
  api: SmartsheetApi;
  budget: RequestBudget;
  policy: RetryPolicy;
  logger: Logger;
  sim: boolean;
  random?: () => number;
  /** Replicas that must hold a row's in-flight marker before its call (RedisHandle.replicaAcks); none by default. */
  replicaAcks?: ReplicaAcks | undefined;
}

const NO_REPLICAS: ReplicaAcks = { count: 0, timeoutMs: 0 };

/** Rows of a stopped batch wait as delayed jobs this long, or until `retry` promotes them. */
export const PARKED_MS = 30 * 24 * 3600 * 1000;

// KEYS: inflight, attempts, started. ARGV: row, now ms. Returns {uncertain, attempts, firstStartMs}: uncertain when the
// marker of an earlier attempt is still there (it crashed, stalled, or ended without knowing whether it applied).
const START = luaScript('RowStart', `
local uncertain = redis.call('HGET', KEYS[1], ARGV[1]) == '1' and 1 or 0
redis.call('HSET', KEYS[1], ARGV[1], '1')
local attempts = redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2])
return {uncertain, attempts, tonumber(redis.call('HGET', KEYS[3], ARGV[1]))}`);

/**
 * Runs one row: the BullMQ processor. Order of checks: a row with an outcome is never run again; a cancelled batch
 * cancels the row; a stopped batch parks it; an uncertain earlier attempt is confirmed before acting; then the job
 * type runs and the retry policy decides what a failure does.
 */
export function createRowProcessor(options: RowProcessorOptions) {
  const { redis, keys, store } = options;
  let warnedUnreplicated = false;
  return async function processRow(job: Job<RowJobData>, token?: string, signal?: AbortSignal): Promise<RowOutcome['outcome']> {
    const { batchId, row } = job.data;
    const logger = options.logger.child({ batch: batchId, row });
    const [batch, planned, previous] = await Promise.all([store.get(batchId), store.getRow(batchId, row), store.getOutcome(batchId, row)]);
    if (previous !== undefined) return previous.outcome;
    const base = rowIdentity(batchId, row, planned, job.name, options.sim);
    const finish = async (fields: Partial<RowOutcome> & Pick<RowOutcome, 'outcome' | 'attempts'>): Promise<RowOutcome['outcome']> => {
      await store.recordOutcome({ ...base, ...fields, finishedAt: new Date().toISOString() });
      const level = fields.outcome === 'failed' ? 'warn' : 'debug';
      logger[level]({ outcome: fields.outcome, attempts: fields.attempts, ...(fields.message ? { reason: fields.message } : {}) }, `row ${fields.outcome}`);
      return fields.outcome;
    };
    if (batch === undefined || planned === undefined || planned.action === undefined) {
      return finish({ outcome: 'failed', attempts: 0, category: 'Other', message: 'the batch record or row is missing from Redis' });
    }
    if (batch.state === 'cancelled') return finish({ outcome: 'cancelled', attempts: 0, message: 'batch cancelled' });
    if (batch.state === 'stopped') {
      await job.moveToDelayed(Date.now() + PARKED_MS, token);
      throw new DelayedError();
    }
    const jobType = options.registry.get(planned.action.action);
    if (jobType === undefined) {
      return finish({ outcome: 'failed', attempts: 0, category: 'Other', message: `no job type for action ${planned.action.action}` });
    }

    // The marker must survive a failover before the call goes out: with replicas, wait until one has it.
    const started = await START.runReplicated(redis, [keys.inflight(batchId), keys.attempts(batchId), keys.started(batchId)], [String(row), Date.now()], options.replicaAcks ?? NO_REPLICAS);
    if (started.acknowledged < (options.replicaAcks?.count ?? 0)) {
      // Once per process: a cluster that lost a replica would otherwise log this for every row.
      logger[warnedUnreplicated ? 'debug' : 'warn']({ wanted: options.replicaAcks?.count }, 'no Redis replica confirmed the in-flight marker in time; going on (a failover now could lose it)');
      warnedUnreplicated = true;
    }
    const [uncertainFlag, attempts, firstStartMs] = started.result as [number, number, number];
    // A job BullMQ moved back after its worker stopped renewing the lock may have been mid-call.
    const uncertain = uncertainFlag === 1 || job.stalledCounter > 0;
    const startedAt = new Date(firstStartMs).toISOString();
    const context: JobContext = {
      api: options.api,
      action: planned.action,
      target: planned.target,
      batchId,
      row,
      previousAttemptUncertain: uncertain,
      signal: signal ?? new AbortController().signal,
      logger,
    };
    let confirmed = false;
    let result: JobResult | 'confirmed-done';
    try {
      if (uncertain) {
        const state = await jobType.confirm(context);
        confirmed = true;
        result = state === 'done' ? 'confirmed-done' : await jobType.run(context);
      } else {
        result = await jobType.run(context);
      }
    } catch (error) {
      // Still unknown when the confirm itself failed, or when this call may have applied unseen.
      const stillUncertain = (uncertain && !confirmed) || (isApiError(error) && error.mayHaveApplied);
      return handleFailure(error, stillUncertain);
    }
    if (result === 'confirmed-done') {
      return finish({ outcome: 'unchanged', attempts, startedAt, confirmed: true, message: 'already done (state re-read after an uncertain attempt)' });
    }
    return finish({ outcome: result.outcome, attempts, startedAt, ...(confirmed ? { confirmed } : {}), ...(result.detail ? { detail: result.detail } : {}) });

    async function handleFailure(error: unknown, stillUncertain: boolean): Promise<never> {
      // Shutting down: leave the row to BullMQ (it goes back to the queue); the marker makes the next run confirm.
      if (signal?.aborted === true) throw error;
      // Redis failed (not the service): not the row's outcome. BullMQ runs the job again; the marker stays.
      if (isRedisFailure(error)) throw error;
      // The marker stays while the service may hold a change nobody saw; the next attempt confirms first.
      if (!stillUncertain) await redis.hdel(keys.inflight(batchId), String(row));
      const decision = decideRetry({ error, attempts, elapsedMs: Date.now() - firstStartMs, policy: options.policy, ...(options.random ? { random: options.random } : {}) });
      const facts = errorFacts(error);
      switch (decision.kind) {
        case 'rate-limited': {
          // The call was refused, not made: it spends no attempt. The client's onResponse already paused the fleet.
          await redis.hincrby(keys.attempts(batchId), String(row), -1);
          const waitMs = Math.max(await options.budget.pausedFor(), options.budget.pauseAfter429(decision.retryAfterMs));
          await options.budget.pause(waitMs);
          await options.queue.rateLimit(waitMs);
          logger.warn({ waitMs }, 'rate limited: row back to the queue, fleet paused');
          throw Worker.RateLimitError();
        }
        case 'retry':
          logger.warn({ attempts, delayMs: decision.delayMs, err: facts }, 'row will be retried');
          await job.moveToDelayed(Date.now() + decision.delayMs, token);
          throw new DelayedError();
        case 'stop-batch': {
          await redis.hincrby(keys.attempts(batchId), String(row), -1);
          const message = `the access token was refused (${facts.status ?? ''} ${facts.message}); fix the token, then run: seatflow retry ${batchId}`;
          if (await store.transition(batchId, ['queued', 'submitting'], 'stopped', message)) logger.error(message);
          await job.moveToDelayed(Date.now() + PARKED_MS, token);
          throw new DelayedError();
        }
        case 'fail':
          await finish({
            outcome: 'failed',
            attempts,
            startedAt,
            ...facts,
            ...(decision.exhausted ? { message: `${facts.message} (gave up after ${attempts} attempts)` } : {}),
            ...(stillUncertain ? { message: `${facts.message}; the last attempt may have been applied: check this user` } : {}),
          });
          throw new UnrecoverableError(facts.message);
      }
    }
  };
}

function errorFacts(error: unknown): Pick<RowOutcome, 'category' | 'status' | 'errorCode' | 'refId'> & { message: string } {
  if (isApiError(error)) {
    return {
      category: error.category,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.errorCode !== undefined ? { errorCode: error.errorCode } : {}),
      ...(error.refId !== undefined ? { refId: error.refId } : {}),
      message: error.message,
    };
  }
  return { category: 'Other', message: error instanceof Error ? error.message : String(error) };
}
