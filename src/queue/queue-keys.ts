import { createHash } from 'node:crypto';

/**
 * The key layout, for one Redis or a Redis Cluster. A Lua script or MULTI may only touch keys of one hash slot, and
 * Redis Cluster puts a key in the slot of its hash tag (the text between the first `{` and the next `}`), so:
 * - one batch's keys carry the batch id as their tag (`…:batch:{b1a2…}:outcomes`): its scripts stay in one slot, and
 *   different batches spread over the cluster;
 * - one token's budget keys carry the token's key (`…:budget:{3f9c…}`): the reservation script stays in one slot;
 * - BullMQ's keys carry the queue's name as their tag (`<prefix>:{rows-1a2b3c4d}:wait`): every row of every batch of
 *   one target goes through that one queue, so they share one slot (docs/operations.md#redis-cluster-and-sentinel);
 * - the list of batches is one key with its own tag.
 * Everything sits under the configured prefix (`redis.queuePrefix`, which may not hold braces), so environments and
 * tests sharing one Redis never see each other's data. New keys are built here, with the tag of what they belong to.
 */
export function createQueueKeys(prefix: string) {
  const base = `${prefix}:sf`;
  const batch = (batchId: string) => `${base}:batch:${hashTag(batchId)}`;
  // Offboarding workflows are few and small: all their keys share one slot, so a workflow's record, the index and the
  // leaving users change in one transaction on a cluster too.
  const workflows = `${base}:${hashTag('workflows')}`;
  // Governance keeps each of its records under one tag: the audit chain is appended by one script (its head and its
  // entries together), an approval changes state by compare-and-set, and neither grows with the number of batches.
  const audit = `${base}:${hashTag('audit')}`;
  const approvals = `${base}:${hashTag('approvals')}`;
  const notifications = `${base}:${hashTag('notifications')}`;
  return {
    /** Sorted set of batch ids by creation time. */
    batches: `${base}:${hashTag('index')}:batches`,
    /**
     * Sorted set of the open batches (a row still to end, or an end not yet in the audit trail), scored by a counter
     * each joining raises (open-batches.ts): what the lost-row sweep and the audit catch-up go through.
     */
    openBatches: `${base}:${hashTag('index')}:open`,
    batch,
    /** Hash row → planned row (JSON) of the rows that are queued as jobs. */
    rows: (batchId: string) => `${batch(batchId)}:rows`,
    /** Hash row → the row's state (`queued`, `scheduled@<due ms>`…), written by row-lifecycle.ts only. */
    rowStates: (batchId: string) => `${batch(batchId)}:row-states`,
    /** Hash row → outcome (JSON); a row has an outcome once and only once. */
    outcomes: (batchId: string) => `${batch(batchId)}:outcomes`,
    /** Hash row → a marker while an attempt is running or ended without knowing whether the change was made (row-attempt.ts). */
    inflight: (batchId: string) => `${batch(batchId)}:inflight`,
    /** Hash row → attempts that reached the service. */
    attempts: (batchId: string) => `${batch(batchId)}:attempts`,
    /** Hash row → attempts that ended without an answer being recorded: their worker died or lost the row. */
    crashed: (batchId: string) => `${batch(batchId)}:crashed`,
    /** Hash row → first start time (ms). */
    started: (batchId: string) => `${batch(batchId)}:started`,
    /**
     * Hash row → the row's run: how many times `retry` forgot its outcome to run it again (absent: 0), written by
     * row-lifecycle.ts with the outcome. What tells a retry's new outcome from the same run's outcome recorded again.
     */
    rowRuns: (batchId: string) => `${batch(batchId)}:row-runs`,
    /**
     * Hash row → the finishedAt of the outcome `retry` last forgot (row-lifecycle.ts): a reopen that ran, lost its
     * answer and was sent again by the connection finds its own work here instead of "no outcome to forget".
     */
    reopenedOutcomes: (batchId: string) => `${batch(batchId)}:reopened-outcomes`,
    /**
     * Hash row → `<run>@<Redis ms>` of each ended row whose end is not yet in the audit trail: written with the outcome
     * (row-lifecycle.ts), removed once its entry is appended (unrecorded-ends.ts). What the audit catch-up reads.
     */
    unrecordedEnds: (batchId: string) => `${batch(batchId)}:unrecorded-ends`,
    /** Hash row → the job waiting for the row's end (a lifecycle's step: queue and job id), written by row-lifecycle.ts. */
    rowWaiters: (batchId: string) => `${batch(batchId)}:row-waiters`,
    /** Hash row → the row's state just before its change (JSON, as its job type read it), for `seatflow revert`. */
    before: (batchId: string) => `${batch(batchId)}:before`,
    /** Hash second (ISO, `2026-11-23T12:00:05`) → rows whose outcome was recorded in that second: the batch's pace. */
    finishedPerSecond: (batchId: string) => `${batch(batchId)}:finished-per-second`,
    /** What the last re-read of the batch's token said after a 403/1004 ('admin' | 'not-admin'), for a short time. */
    tokenVerdict: (batchId: string) => `${batch(batchId)}:token-verdict`,
    /** Held by the one worker re-reading the token, so the fleet makes one GET /users/me, not one per row. */
    tokenVerdictLock: (batchId: string) => `${batch(batchId)}:token-verdict:lock`,
    /** A dashboard session (its value is 1; it expires with the session). */
    dashboardSession: (sessionId: string) => `${base}:dashboard-session:${hashTag(sessionId)}`,
    /** GCRA state (theoretical arrival time) of an access token's request budget. */
    budget: (tokenKey: string) => `${base}:budget:${hashTag(tokenKey)}`,
    /** Until when (ms) every worker using this token waits, after a 429. */
    pause: (tokenKey: string) => `${base}:pause:${hashTag(tokenKey)}`,
    /** Counters of calls and 429s per token, for status and benchmarks. */
    calls: (tokenKey: string) => `${base}:calls:${hashTag(tokenKey)}`,
    /** Sorted set of workflow ids (every lifecycle: offboardings, joiners, movers) by creation time. */
    workflows: `${workflows}:index`,
    /** Set of the ids of workflows with a person still to come (the step sweep's list; workflows submitted before it are found by the index). */
    workflowsOpen: `${workflows}:open`,
    /** Hash: a workflow's record (its lifecycle, options, step batch ids, counts). */
    workflow: (workflowId: string) => `${workflows}:workflow:${workflowId}`,
    /** Hash row → a person's state (JSON): phase, dates, steps (a leaver's also the state before). Named when only leavers had one. */
    leavers: (workflowId: string) => `${workflows}:workflow:${workflowId}:leavers`,
    /** Sorted set `<row>:<step>` → due time (ms, service clock) of every step of the workflow not yet ended. */
    workflowSteps: (workflowId: string) => `${workflows}:workflow:${workflowId}:steps`,
    /** The same steps, as long as no worker has started them: what the service-clock sweep may need to promote. */
    workflowStepsWaiting: (workflowId: string) => `${workflows}:workflow:${workflowId}:steps-waiting`,
    /** Set of the rows of leavers with a step to come: the workflow finishes when it is empty. */
    workflowOpen: (workflowId: string) => `${workflows}:workflow:${workflowId}:open`,
    /**
     * Hash userId → the offboarding and row of every leaver of an open offboarding of one target (transfer targets
     * must not be leaving). Per target, since user ids of different services (a simulation, the real one) mean others.
     */
    leaving: (targetKey: string) => `${workflows}:leaving:${targetKey}`,
    /**
     * The export `seatflow sync` last accepted for one target and policy (`syncKey`): employee id → what was kept of
     * the employee (JSON), its record (`…:meta`), and the next one while it is written (`…:staging`). One slot per
     * key, so the written export replaces the old one in one RENAME.
     */
    syncAccepted: (syncKey: string) => `${base}:sync:${hashTag(syncKey)}:employees`,
    syncAcceptedMeta: (syncKey: string) => `${base}:sync:${hashTag(syncKey)}:meta`,
    syncAcceptedStaging: (syncKey: string) => `${base}:sync:${hashTag(syncKey)}:staging`,
    /** The audit log: a stream of hash-chained entries (docs/governance.md#the-audit-trail). */
    auditLog: `${audit}:log`,
    /** The chain's head: the last entry's sequence number and hash, moved by the append script only. */
    auditHead: `${audit}:head`,
    /** SHA-256 of the configuration files last recorded, so a change is logged once, not at every start. */
    auditConfig: `${audit}:config`,
    /** Sorted set of change requests (approvals) by creation time. */
    approvals: `${approvals}:index`,
    /** A change request's record (JSON). */
    approval: (id: string) => `${approvals}:request:${id}`,
    /** What a change request re-plans from (JSON: the manifest's bytes, the options). */
    approvalInput: (id: string) => `${approvals}:request:${id}:input`,
    /** The plan the approvers see (JSON lines of the fingerprint). */
    approvalPlan: (id: string) => `${approvals}:request:${id}:plan`,
    /** Stream of notification deliveries (each try, its answer), capped. */
    deliveries: `${notifications}:deliveries`,
    /** Counter of 429 answers of one token in the current minute, for `budget.paused`. */
    rateLimitedWatch: (tokenKey: string, minute: number) => `${notifications}:429:${tokenKey}:${minute}`,
    /** The last run (JSON) of a reconciliation schedule of one schedule queue (in that queue's slot). */
    scheduleLastRun: (scheduleQueue: string, name: string) => `${base}:schedule:${scheduleQueue}:${name}:last`,
  };
}

export type QueueKeys = ReturnType<typeof createQueueKeys>;

/** `{id}`: the part of a key Redis Cluster hashes. Ids are seatflow's own (hex and dashes), never braces. */
export function hashTag(id: string): string {
  if (/[{}]/.test(id)) throw new Error(`a hash tag cannot contain braces: ${id}`);
  return `{${id}}`;
}

/**
 * The BullMQ queue of a target: workers for one service never take rows meant for another. Its name is a hash tag,
 * as BullMQ's cluster guide asks, so that every key of the queue (BullMQ's scripts touch several) shares one slot.
 */
export function rowsQueueName(target: string): string {
  return hashTag(`rows-${createHash('sha256').update(target).digest('hex').slice(0, 8)}`);
}

/** The BullMQ queue of a target's reconciliation schedules (Job Schedulers): only workers of that service fire them. */
export function scheduleQueueNameOf(target: string): string {
  return hashTag(`schedules-${createHash('sha256').update(target).digest('hex').slice(0, 8)}`);
}

/** The BullMQ queue of notification deliveries (one per prefix: any worker of any target delivers them). */
export const NOTIFICATIONS_QUEUE = hashTag('notifications');

/** A token is never written to Redis; its budget is keyed by a hash of it. */
export function tokenKey(accessToken: string): string {
  return createHash('sha256').update(`seatflow-budget:${accessToken}`).digest('hex').slice(0, 24);
}
