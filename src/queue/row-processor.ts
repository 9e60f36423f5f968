import { DelayedError, UnrecoverableError, Worker, type Job, type Queue } from 'bullmq';
import { isApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { msUntilDue, surelyPassed, systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { BatchStore } from './batch-store.js';
import { describeVerdict, judgeEventsSinceAttempt, type ChangeWitness, type EventsVerdict } from './events-since-attempt.js';
import { CONFIRMED_DONE, confirmsAfterSettle, type JobContext, type JobRegistry, type JobResult, type JobType } from './job-type.js';
import { parkJob } from './park-job.js';
import type { QueueKeys } from './queue-keys.js';
import { createRedisClock, type SharedClock } from './redis/redis-clock.js';
import type { RedisClient, ReplicaAcks } from './redis/lua-script.js';
import { isRedisFailure } from './redis/redis-failure.js';
import type { RequestBudget } from './request-budget.js';
import { decideAfterTokenCheck, decideRetry, type RetryDecision, type RetryPolicy } from './retry-policy.js';
import { createRowAttempts } from './row-attempt.js';
import type { ConfirmLater, RowJobData } from './row-job.js';
import { RowLockLostError } from './row-lock-lost.js';
import { leaveIfReplaced } from './redis/replicated-write.js';
import type { RowOutcome } from './row-outcome.js';
import type { TokenCheck } from './token-check.js';
import { rowIdentity } from './submit-batch.js';
import { plural } from '../core/plural.js';
import { plannedStateBefore } from '../plan/planned-state-before.js';
import { EVENT_RECHECK_MS, lateConfirmDelayMs, MAX_CRASHES_PER_ROW, NOT_DUE_RECHECK_MS, PARKED_MS, readsAgain, WAIT_FOR_REPLICA_MS } from './row-patience.js';

export interface RowProcessorOptions {
  redis: RedisClient;
  keys: QueueKeys;
  store: BatchStore;
  queue: Queue<RowJobData>;
  registry: JobRegistry;
  api: SmartsheetApi;
  budget: RequestBudget;
  policy: RetryPolicy;
  /** Re-reads the batch's token after a 403/1004, once for the fleet. */
  tokenCheck: TokenCheck;
  logger: Logger;
  sim: boolean;
  /**
   * The longest one request of `api` can take from sending to its last byte (from the client's timeouts, see
   * `longestRequestMs`): a create whose request got no answer is confirmed no sooner than this after it failed.
   */
  requestSettleMs: number;
  /** Where shared times come from; Redis TIME by default. */
  clock?: SharedClock;
  /**
   * The service's clock (service-clock.ts): a row of a lifecycle step is never run before its due instant on it,
   * whoever queued it. Default this machine's clock.
   */
  serviceClock?: Clock;
  random?: () => number;
  /** Replicas that must hold a row's in-flight marker before its call (RedisHandle.replicaAcks); none by default. */
  replicaAcks?: ReplicaAcks | undefined;
  /** Read each row's state before its change (job types' `readBefore`) for `seatflow revert`. Default true. */
  recordStateBefore?: boolean;
  /**
   * The service's events, when seatflow subscribes to them (events-since-attempt.ts): after a lost answer, a row whose
   * job type's change the service reports as an event reads them besides its confirm. Absent: the confirm alone decides.
   */
  witness?: ChangeWitness | undefined;
  /**
   * How long a row whose answer was lost, read as not done, waits for the events that would say its change landed
   * (callbacks come late) before it is sent again. Default 120 s.
   */
  eventWaitMs?: number;
}

/**
 * A read after a lost answer found neither the change nor what the row found: someone else changed it since. Sent
 * again, the row would undo their change; whether its own change landed before theirs, a read cannot tell.
 */
const CHANGED_SINCE =
  "changed by someone else since this row's attempt whose answer was lost (what the service shows is neither this row's change nor what it found): not sent again, so as not to undo theirs; whether this row's change landed before theirs cannot be told";

/** What a row whose answer was lost learned from the confirm read and the service's events. */
type LostAnswer = 'done' | 'not-done' | 'changed-since' | 'await-events' | Exclude<EventsVerdict, { kind: 'nothing-heard' }>;

type Facts = ConfirmLater['failure'];

/**
 * Runs one row: the BullMQ processor. Order of checks: a row with an outcome is never run again; a cancelled batch
 * cancels the row; a stopped batch parks it; an earlier request of a create that may still land is waited out; an
 * uncertain earlier attempt is confirmed before acting; then the job type runs and the retry policy decides what a
 * failure does. A row whose budget runs out while its change may have applied gets a later confirm-only attempt and
 * ends `unknown` only when even that cannot read the service. Every time that another machine compares (start,
 * elapsed budget, when a parked row is due, finish) comes from Redis, never from this worker's clock.
 */
export function createRowProcessor(options: RowProcessorOptions) {
  const { store, policy } = options;
  const attemptsOf = createRowAttempts(options.redis, options.keys, options.replicaAcks);
  const clock = options.clock ?? createRedisClock(options.redis);
  const serviceClock = options.serviceClock ?? systemClock;
  const rows = store.rowLifecycle;
  const settleMs = options.requestSettleMs;
  const eventWaitMs = options.eventWaitMs ?? 120_000;

  let warnedUnreplicated = false;
  return async function processRow(job: Job<RowJobData>, token?: string, signal?: AbortSignal): Promise<RowOutcome['outcome'] | 'not-queued'> {
    const { batchId, row } = job.data;
    const logger = options.logger.child({ batch: batchId, row });
    /** The row waits as a delayed job (a backoff, a 429, a stopped batch): it is queued again, not running. */
    const park = async (delayMs: number, maxDelayMs: number, nowMs?: number, wasRunning = true): Promise<never> => {
      if (wasRunning) await rows.park(batchId, row);
      await parkJob(job, token, { nowMs: nowMs ?? (await clock.now()), delayMs, maxDelayMs });
      throw new DelayedError();
    };
    const [batch, planned] = await Promise.all([store.get(batchId), store.getRow(batchId, row)]);
    // The row's state decides whether it may run now (row-lifecycle.ts): a row that ended is never run again; one
    // that is not queued, or not due yet on the service clock, must not be, whoever queued it.
    await serviceClock.refresh?.();
    let begun = await rows.start(batchId, row, surelyPassed(serviceClock));
    if (begun.kind === 'not-due' && serviceClock.refresh !== undefined) {
      // Whoever queued the row found it due; this worker's reading may be up to a second old, and a rehearsal moves
      // the reference server's clock by days at a time: read it now rather than park the row for a minute.
      await serviceClock.refresh(true);
      begun = await rows.start(batchId, row, surelyPassed(serviceClock));
    }
    const startedOnServiceClock = new Date(serviceClock.now()).toISOString();
    if (begun.kind === 'ended') return (await store.getOutcome(batchId, row))?.outcome ?? 'unknown';
    if (begun.kind === 'not-queued') {
      logger.error(
        { state: begun.state, ...(begun.dueAt === undefined ? {} : { dueAt: new Date(begun.dueAt).toISOString() }) },
        `a job was handed out for a row that is ${begun.state}${begun.dueAt === undefined ? '' : ` for ${new Date(begun.dueAt).toISOString()}`}, not queued: not run (its step queues it when it is due)`,
      );
      return 'not-queued';
    }
    if (begun.kind === 'not-due') {
      const waitMs = msUntilDue(serviceClock, begun.dueAt);
      logger.error({ dueAt: new Date(begun.dueAt).toISOString(), waitMs }, 'a row was queued before its due instant: not run; it waits until it is due on the service clock');
      return park(Math.min(waitMs, NOT_DUE_RECHECK_MS), NOT_DUE_RECHECK_MS, undefined, false);
    }
    const base = { ...rowIdentity(batchId, row, planned, job.name, options.sim), startedOnServiceClock };
    const lockLost = (): boolean => signal?.aborted === true;
    /** Attempts of this row that ended without an answer (worker died, row lost): shown apart from `attempts`. */
    let crashedAttempts = 0;
    const finish = async (fields: Partial<RowOutcome> & Pick<RowOutcome, 'outcome' | 'attempts'>): Promise<RowOutcome['outcome']> => {
      // Another worker owns the row now: it records the outcome, after confirming.
      if (lockLost()) throw new RowLockLostError(job.id ?? `${batchId}-${row}`);
      const finishedAt = new Date(await clock.now()).toISOString();
      await store.recordOutcome({ ...base, ...fields, ...(crashedAttempts > 0 ? { crashedAttempts } : {}), finishedAt });
      const level = fields.outcome === 'failed' || fields.outcome === 'unknown' ? 'warn' : 'debug';
      logger[level]({ outcome: fields.outcome, attempts: fields.attempts, ...(fields.message ? { reason: fields.message } : {}) }, `row ${fields.outcome}`);
      return fields.outcome;
    };
    if (batch === undefined || planned === undefined || planned.action === undefined) {
      return finish({ outcome: 'failed', attempts: 0, category: 'Other', message: 'the batch record or row is missing from Redis' });
    }
    // A row of a cancelled batch that may have applied (parked while its request may still land) goes on: it confirms
    // and ends as it finds, like a row that was running when the batch was cancelled.
    if (batch.state === 'cancelled' && !(await attemptsOf.inFlight(batchId, row))) return finish({ outcome: 'cancelled', attempts: 0, message: 'batch cancelled' });
    if (batch.state === 'stopped') return park(PARKED_MS, PARKED_MS);
    const jobType = options.registry.get(planned.action.action);
    if (jobType === undefined) {
      return finish({ outcome: 'failed', attempts: 0, category: 'Other', message: `no job type for action ${planned.action.action}` });
    }

    const late = job.data.confirmLater;
    const start = await attemptsOf.start(batchId, row, { settleMs: confirmsAfterSettle(jobType) ? settleMs : 0, countAttempt: late === undefined, maxCrashed: MAX_CRASHES_PER_ROW });
    crashedAttempts = start.crashed;
    if (start.kind === 'crashed-out') {
      return finish({
        outcome: 'unknown',
        attempts: start.attempts,
        category: 'Other',
        message: `${start.crashed} attempts of this row ended without an answer (their worker stopped or lost the row mid-call); it may have been applied and is not tried again: find why, then check it with seatflow retry ${batchId}`,
      });
    }
    if (start.kind === 'wait') {
      logger.info({ waitMs: start.waitMs }, 'an earlier request of this row may still land: confirming after it');
      return park(start.waitMs, settleMs, start.nowMs);
    }
    if (!start.replicated) {
      // On a master the sentinels replaced, the marker and the row's records are dropped when it is demoted, and the
      // row runs again from the new master's copy unaware of this call: so no call goes out from here (soak seed 4404:
      // a column updated twice, 1 ms apart). The new master's copy of the row, if it has one, is run there.
      const standing = await leaveIfReplaced(options.redis, logger, 'row', 'leaving the row to the new master');
      if (standing === 'replaced') throw new RowLockLostError(job.id ?? `${batchId}-${row}`);
      if (start.waitedForReplicas || standing === 'unknown') {
        // A replica that stops acknowledging may have just been promoted, before the sentinels name it: the master
        // here is then on its way out, and a call sent from it would be sent again from the new one (soak seeds 5802,
        // 5904). So the row sends nothing and tries again in a moment, until replicas have been missing for the
        // patience (then rows go on without them, below, as a lost replica must not stop the work), and while no
        // sentinel can say this is still the master (soak seed 6308: a row sent from a replaced master, in the quiet
        // period, while the sentinels failed over, lost its job and its outcome).
        await attemptsOf.notSent(batchId, row, { uncertain: start.uncertain, counted: late === undefined });
        logger.info({ sentinels: standing }, 'no Redis replica took the in-flight marker: trying again in a moment rather than calling from a master that may be on its way out');
        return park(WAIT_FOR_REPLICA_MS, WAIT_FOR_REPLICA_MS, start.nowMs);
      }
      // Once per process: a cluster that lost a replica would otherwise log this for every row.
      logger[warnedUnreplicated ? 'debug' : 'warn']({ wanted: options.replicaAcks?.count }, 'no Redis replica confirmed the in-flight marker in time; going on (a failover now could lose it)');
      warnedUnreplicated = true;
    }
    const { attempts, firstStartMs } = start;
    // A job BullMQ moved back after its worker stopped renewing the lock may have been mid-call; a row queued again
    // after its job was lost may have applied before (its record went with the lost job).
    const uncertain = start.uncertain || job.stalledCounter > 0 || job.data.recovered === true;
    const startedAt = new Date(firstStartMs).toISOString();
    const context: JobContext = {
      api: options.api,
      action: planned.action,
      target: planned.target,
      batchId,
      row,
      previousAttemptUncertain: uncertain || late !== undefined,
      signal: signal ?? new AbortController().signal,
      logger,
    };
    if (late !== undefined) return confirmLater(late);

    let confirmed = false;
    let result: JobResult | 'confirmed-done' | 'cancelled-not-sent' | Exclude<LostAnswer, 'done' | 'not-done'>;
    try {
      if (uncertain) {
        const state = await afterLostAnswer(jobType);
        confirmed = state !== 'await-events';
        // The batch was cancelled while the row waited to confirm: it ends as the confirm finds, and is not sent again.
        const sendAgain = async () => (batch.state === 'cancelled' ? ('cancelled-not-sent' as const) : recordBeforeAndRun(jobType, context));
        result = state === 'done' ? 'confirmed-done' : state === 'not-done' ? await sendAgain() : state;
      } else {
        result = await recordBeforeAndRun(jobType, context);
      }
    } catch (error) {
      // Still unknown when the confirm itself failed, or when this call may have applied unseen.
      const mayHaveApplied = isApiError(error) && error.mayHaveApplied;
      // Only this attempt's own write can still be on its way; a failed confirm read leaves nothing in flight.
      const inFlightMs = mayHaveApplied && error.status === undefined && confirmsAfterSettle(jobType) ? settleMs : 0;
      return handleFailure(error, (uncertain && !confirmed) || mayHaveApplied, inFlightMs);
    }
    if (result === 'await-events') return awaitEvents();
    if (result === 'changed-since') return finishChangedSince();
    if (result === 'cancelled-not-sent') {
      await attemptsOf.clear(batchId, row);
      return finish({ outcome: 'cancelled', attempts, startedAt, confirmed: true, message: 'batch cancelled; its earlier attempt did not land (confirmed on the service), so it was not sent again' });
    }
    // A create after an uncertain attempt may sit beside a late one. So may one this worker sent after losing the row
    // unawares (frozen before sending; on waking, the call can go out before the failed lock renewal is noticed): the
    // lock is read back, and the later of the two objects is removed by whichever worker looks last.
    if (jobType.keepOne !== undefined && (lockLost() || (await lockTakenFrom(job, token)))) return abandon(false);
    if (typeof result === 'object' && 'kind' in result) return finishOnEvents(result);
    const kept = uncertain ? await keepOne(jobType, context) : undefined;
    if (result === 'confirmed-done') {
      return finish({ outcome: 'succeeded', attempts, startedAt, confirmed: true, message: CONFIRMED_DONE, ...(kept ? { detail: kept } : {}) });
    }
    const detail = result.detail || kept ? { ...result.detail, ...kept } : undefined;
    return finish({ outcome: result.outcome, attempts, startedAt, ...(confirmed ? { confirmed } : {}), ...(detail ? { detail } : {}), ...(result.message ? { message: result.message } : {}) });

    /**
     * After an attempt whose answer was lost: the service's events about the row's user since its first attempt, then
     * (unless they settle it) the job type's confirm read. A read alone cannot tell "never landed" from "landed and
     * undone since"; the events can. A read of "not done" with no event yet waits for them a while (callbacks come
     * late) before the row is sent again: the fallback, and all there is without a subscription.
     */
    async function afterLostAnswer(type: JobType): Promise<LostAnswer> {
      const waiting = job.data.awaitingEvents;
      const heard = await eventsSinceAttempt(type);
      if (heard !== undefined && heard.kind !== 'nothing-heard') return heard;
      // Still within the wait: only the events are looked at, so a waiting row costs the service nothing.
      if (heard !== undefined && waiting !== undefined && (await clock.now()) < waiting.untilMs) return 'await-events';
      const read = await type.confirm(context, await store.stateBefore(batchId, row));
      if (read !== 'not-done') return read;
      // An event may have come in while the service was read.
      const heardSince = heard === undefined ? undefined : await eventsSinceAttempt(type);
      if (heardSince !== undefined && heardSince.kind !== 'nothing-heard') return heardSince;
      if (heardSince !== undefined && waiting === undefined) return 'await-events';
      if (waiting !== undefined) {
        logger.info('no event said this row\'s change landed within the wait: sending it again');
        const { awaitingEvents: _waited, ...rest } = job.data;
        await job.updateData(rest);
      }
      return 'not-done';
    }

    /**
     * What the events say about the row's user since its first attempt; undefined when they cannot say anything (no
     * subscription, a job type whose change sends no event, a row without a resolved user).
     */
    async function eventsSinceAttempt(type: JobType): Promise<EventsVerdict | undefined> {
      const userId = context.target.userId;
      const reportedBy = type.reportedBy?.(context);
      if (reportedBy === undefined || options.witness === undefined || userId === undefined) return undefined;
      if (!(await options.witness.subscribed(reportedBy.seat?.planId))) return undefined;
      // Redis time on both sides: when the row first started, and when each event was taken in.
      return judgeEventsSinceAttempt(await options.witness.heardSince(userId, firstStartMs), reportedBy);
    }

    /** The row waits for the service's events: nothing was sent, so no attempt is spent, and it confirms again next. */
    async function awaitEvents(): Promise<never> {
      const nowMs = await clock.now();
      const untilMs = job.data.awaitingEvents?.untilMs ?? nowMs + eventWaitMs;
      if (job.data.awaitingEvents === undefined) {
        logger.info({ waitMs: eventWaitMs }, "this row's change reads as not done after a lost answer: waiting for the service's events before sending it again");
        await job.updateData({ ...job.data, awaitingEvents: { untilMs } });
      }
      await attemptsOf.leaveUncertain(batchId, row, 0);
      if (late === undefined) await attemptsOf.uncount(batchId, row);
      return park(Math.max(0, Math.min(EVENT_RECHECK_MS, untilMs - nowMs)), eventWaitMs, nowMs);
    }

    /** `unknown`, and never sent again: it may have landed before the other change, and then it was made. */
    async function finishChangedSince(): Promise<RowOutcome['outcome']> {
      await attemptsOf.clear(batchId, row);
      return finish({ outcome: 'unknown', attempts, startedAt, category: 'Conflict', message: CHANGED_SINCE });
    }

    /** The events settled it: the change landed (maybe undone since), or someone else changed the same attribute. */
    function finishOnEvents(verdict: Exclude<EventsVerdict, { kind: 'nothing-heard' }>): Promise<RowOutcome['outcome']> {
      const message = describeVerdict(verdict);
      if (verdict.kind === 'landed') return finish({ outcome: 'succeeded', attempts, startedAt, confirmed: true, message });
      return finish({ outcome: 'skipped', attempts, startedAt, category: 'Conflict', message });
    }

    /**
     * The row's state before is read once, just before its first change (a later attempt finds it kept): a read that
     * fails fails the attempt like the change would, and is retried with it (it changed nothing). What the plan read
     * for the row (target.readAtPlan) stands in for the read while that reading stands (planned-state-before.ts). A
     * job type that can tell from it that the change is already there (alreadyDone) ends the row `unchanged` unsent.
     */
    async function recordBeforeAndRun(type: JobType, rowContext: JobContext): Promise<JobResult> {
      const records = options.recordStateBefore !== false;
      if (type.readBefore !== undefined && (records || type.alreadyDone !== undefined) && !(await store.hasStateBefore(batchId, row))) {
        const before = plannedStateBefore(rowContext.target, serviceClock.now()) ?? (await type.readBefore(rowContext));
        const already = type.alreadyDone?.(before, rowContext);
        if (already !== undefined) return { outcome: 'unchanged', message: already };
        if (records) await store.saveStateBefore(batchId, row, before);
      }
      return type.run(rowContext);
    }

    async function keepOne(type: JobType, rowContext: JobContext): Promise<JobResult['detail']> {
      if (type.keepOne === undefined) return undefined;
      try {
        const removed = await type.keepOne(rowContext);
        if (removed !== undefined) logger.warn(removed, 'a late request created this row\'s object twice: kept the oldest, removed the others');
        return removed;
      } catch (error) {
        logger.warn({ err: error }, 'could not check this row for a second object');
        return undefined;
      }
    }

    /** The retry budget is spent and the change may have applied: only read, later, and end on what the read says. */
    async function confirmLater(pending: ConfirmLater): Promise<RowOutcome['outcome']> {
      let state: LostAnswer;
      try {
        state = await afterLostAnswer(jobType!);
      } catch (error) {
        if (lockLost()) throw error;
        const decision = decideRetry({ error, attempts: 1, elapsedMs: 0, policy, ...(options.random ? { random: options.random } : {}) });
        if (decision.kind === 'rate-limited') return rateLimited(decision, false);
        const tries = pending.tries + 1;
        // A passing failure (5xx, timeout) is retryable: `retry`, or `fail` as exhausted by the row's attempt budget.
        const passing = decision.kind === 'retry' || (decision.kind === 'fail' && decision.exhausted);
        const awaited = passing && (await rows.statusOf(batchId, row)).dueAt !== undefined;
        if (readsAgain(tries, passing, awaited)) {
          await job.updateData({ batchId, row, confirmLater: { ...pending, tries } });
          const delayMs = passing ? lateConfirmDelayMs(tries, policy.maxDelayMs) : policy.maxDelayMs;
          return park(delayMs, delayMs);
        }
        await finish({
          outcome: 'unknown',
          attempts,
          startedAt,
          ...pending.failure,
          message: `${pending.failure.message}; it may have been applied, and ${tries} later reads could not tell (${errorFacts(error).message}): check it with seatflow retry ${batchId}`,
        });
        throw new UnrecoverableError(pending.failure.message);
      }
      if (state === 'await-events') return awaitEvents();
      if (state === 'changed-since') return finishChangedSince();
      if (typeof state === 'object') return finishOnEvents(state);
      if (state === 'done') {
        const kept = await keepOne(jobType!, context);
        return finish({ outcome: 'succeeded', attempts, startedAt, confirmed: true, message: CONFIRMED_DONE, ...(kept ? { detail: kept } : {}) });
      }
      // Read after the budget ran out: the change is not there, so the row failed, knowingly.
      await attemptsOf.clear(batchId, row);
      await finish({ outcome: 'failed', attempts, startedAt, confirmed: true, ...pending.failure, message: `${pending.failure.message} (a later read shows it was not applied)` });
      throw new UnrecoverableError(pending.failure.message);
    }

    /**
     * This worker lost the row: it records nothing. A create it may have made (answered, or aborted after sending)
     * can sit beside the new owner's: once such a request can no longer land, the later object is removed.
     */
    async function abandon(mayStillLand: boolean): Promise<never> {
      if (jobType!.keepOne !== undefined) {
        if (mayStillLand) await new Promise((resolve) => setTimeout(resolve, settleMs));
        await keepOne(jobType!, { ...context, signal: AbortSignal.timeout(Math.max(settleMs, 10_000)) });
      }
      throw new RowLockLostError(job.id ?? `${batchId}-${row}`);
    }

    /** True when BullMQ's lock on the row is no longer this worker's (it expired and another worker took the row). */
    async function lockTakenFrom(running: Job<RowJobData>, ownToken: string | undefined): Promise<boolean> {
      if (ownToken === undefined || running.id === undefined) return false;
      return (await options.redis.get(`${options.queue.toKey(running.id)}:lock`)) !== ownToken;
    }

    async function rateLimited(decision: Extract<RetryDecision, { kind: 'rate-limited' }>, spentAttempt: boolean): Promise<never> {
      // The call was refused, not made: it spends no attempt. The client's onResponse already paused the fleet.
      if (spentAttempt) await attemptsOf.uncount(batchId, row);
      const waitMs = Math.max(await options.budget.pausedFor(), options.budget.pauseAfter429(decision.retryAfterMs));
      await options.budget.pause(waitMs);
      await options.queue.rateLimit(waitMs);
      await rows.park(batchId, row);
      logger.warn({ waitMs }, 'rate limited: row back to the queue, fleet paused');
      throw Worker.RateLimitError();
    }

    /** `inFlightMs`: how long this attempt's write may still land (a request that got no answer), else 0. */
    async function handleFailure(error: unknown, stillUncertain: boolean, inFlightMs: number): Promise<never> {
      // Lost the row: leave it to BullMQ and the next owner; the marker makes it confirm first.
      if (lockLost()) return abandon(isApiError(error) && error.mayHaveApplied);
      // Redis failed (not the service): not the row's outcome. BullMQ runs the job again; the marker stays.
      if (isRedisFailure(error)) throw error;
      if (stillUncertain) await attemptsOf.leaveUncertain(batchId, row, inFlightMs);
      else await attemptsOf.clear(batchId, row);
      const nowMs = await clock.now();
      const first = decideRetry({ error, attempts, elapsedMs: nowMs - firstStartMs, policy, ...(options.random ? { random: options.random } : {}) });
      // A 403/1004: the fleet re-reads its token once; still a System Admin → only this row fails.
      const decision = first.kind === 'verify-token' ? decideAfterTokenCheck(await options.tokenCheck.stillSystemAdmin(batchId)) : first;
      const facts = errorFacts(error);
      switch (decision.kind) {
        case 'rate-limited':
          return rateLimited(decision, true);
        case 'retry':
          logger.warn({ attempts, delayMs: decision.delayMs, err: facts }, 'row will be retried');
          return park(decision.delayMs, policy.maxDelayMs, nowMs);
        case 'stop-batch': {
          await attemptsOf.uncount(batchId, row);
          const message = `the access token was refused (${facts.status ?? ''} ${facts.message}); fix the token, then run: seatflow retry ${batchId}`;
          if (await store.transition(batchId, ['queued', 'submitting'], 'stopped', message)) logger.error(message);
          return park(PARKED_MS, PARKED_MS, nowMs);
        }
        case 'fail': {
          const failure = { ...facts, ...(decision.exhausted ? { message: `${facts.message} (gave up after ${plural(attempts, 'attempt')})` } : {}) };
          if (stillUncertain) {
            // Never `failed` while the change may be there: read again later, with a budget of its own.
            logger.warn({ attempts, err: facts }, 'retry budget spent while the change may have applied: confirming later');
            await job.updateData({ batchId, row, confirmLater: { tries: 0, failure } });
            return park(policy.maxDelayMs, policy.maxDelayMs, nowMs);
          }
          await finish({ outcome: 'failed', attempts, startedAt, ...failure });
          throw new UnrecoverableError(facts.message);
        }
      }
    }
  };
}

function errorFacts(error: unknown): Facts {
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
