import { createHash } from 'node:crypto';
import { eventNameOf, type Callback, type CallbackEvent } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import { UsageError } from '../core/seatflow-error.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { Notifier } from '../governance/notifications/notification-event.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import { actOnDrift, type DriftReconciliation, type ReconcileDrift } from './act-on-drift.js';
import { classifyEvent, type EventOrigin } from './classify-event.js';
import type { Drift, PolicyInForce } from './drift-check.js';
import type { EventKeys } from './event-keys.js';
import { describeOutsideChange, eventFingerprint, outsideChangeOf, type OutsideChange } from './outside-change.js';
import type { OwnChangeLedger } from './own-change-ledger.js';
import type { PersonChangedElsewhere } from './person-changed-elsewhere.js';
import type { ProvisionalTracker } from './provisional-tracker.js';
import type { Subscription } from './subscription-store.js';
import type { UserEventLog } from './user-event-log.js';
import { writeTogether } from '../queue/redis/write-together.js';

/** Who the audit trail names for a change made by the service itself. */
export const SERVICE_ACTOR = 'service';

export interface CallbackHandlingDeps {
  redis: RedisClient;
  keys: Pick<EventKeys, 'event' | 'counters'>;
  target: string;
  sim: boolean;
  ledger: Pick<OwnChangeLedger, 'explain'>;
  provisional: Pick<ProvisionalTracker, 'observe'>;
  /** Each user's events, for the rows whose answer was lost (user-event-log.ts). */
  userEvents: Pick<UserEventLog, 'record'>;
  audit: Pick<AuditLog, 'appendOnce'>;
  /**
   * Makes an idempotent write until a Redis replica holds it (replicated-write.ts): behind Sentinel, an entry appended
   * on a master just replaced is dropped with it, while the mark that it was made may land on the new one (soak seed
   * 6306: an outside deactivation with no audit entry). Absent: written once.
   */
  keptOnReplica?: (write: () => Promise<unknown>) => Promise<unknown>;
  notifier: Notifier;
  /** seatflow's `Smartsheet-Change-Agent`, when it sends one (config api.changeAgent). */
  changeAgent?: string | undefined;
  /** The e-mail of a user id (the actor of a change), when it can be read; undefined otherwise. */
  emailOf(userId: number): Promise<string | undefined>;
  /** The policies in force and how to check one; absent: no drift is looked for (no access token). */
  drift?: {
    policies(): Promise<PolicyInForce[]>;
    check(change: OutsideChange, policy: PolicyInForce): Promise<Drift | undefined>;
    reconcile?: ReconcileDrift;
  };
  personChangedElsewhere: PersonChangedElsewhere;
  now(): number;
  logger: Logger;
}

export interface HandledCallback {
  events: number;
  seatflow: number;
  outside: number;
  /** Events handled before (a re-delivered callback, a retried job): nothing was done again. */
  repeated: number;
  drifts: number;
}

/** Kept as long as the service may deliver an event again (its retries last about a day). */
const EVENT_MEMORY_SECONDS = 7 * 24 * 3600;

/**
 * Handles one verified callback of the subscribed plan webhook (docs/events.md): for each user event, whose change it
 * was (classifyEvent); for every one, the Provisional Member tracking; for a change made outside seatflow, an audit
 * entry (who, when, what), the drift check against each policy in force (a notification, and the user's
 * reconciliation when the policy says so), and the lifecycles' re-check of that person. Each effect of an event is
 * marked done in Redis once made, so an event delivered or handled twice acts once.
 */
export async function handleCallback(callback: Callback, subscription: Subscription, deps: CallbackHandlingDeps): Promise<HandledCallback> {
  const summary: HandledCallback = { events: 0, seatflow: 0, outside: 0, repeated: 0, drifts: 0 };
  for (const event of callback.events ?? []) {
    const userId = event.id;
    if (event.objectType !== 'user' || userId === undefined) continue;
    summary.events += 1;
    const key = deps.keys.event(eventFingerprint(callback.webhookId, event));
    const done = await deps.redis.hgetall(key);
    if (done.finished !== undefined) {
      summary.repeated += 1;
      continue;
    }
    const step = stepper(deps.redis, key, done);
    // The verdict is kept: a retry must not ask the ledger again (its call was claimed the first time).
    const origin = await step.memo('origin', () => classifyEvent(event, { ownUserId: subscription.ownUserId, changeAgent: deps.changeAgent, ledger: deps.ledger, now: deps.now() }));
    await step.once('provisional', () => deps.provisional.observe(event, callback.scopeObjectId, deps.now()));
    if (origin.by === 'seatflow') {
      summary.seatflow += 1;
      const name = eventNameOf(event);
      const seat = event.seatType === undefined ? {} : { seatType: event.seatType };
      await step.once('heard', () =>
        deps.userEvents.record(userId, { event: name, by: 'seatflow', at: event.timestamp, summary: `${event.email ?? `user ${userId}`} ${name}${event.seatType === undefined ? '' : ` ${event.seatType}`} by seatflow at ${event.timestamp}`, planId: callback.scopeObjectId, ...seat }),
      );
    } else {
      summary.outside += 1;
      summary.drifts += await handleOutside({ ...event, id: userId }, origin, callback, step, deps);
    }
    await step.finish();
    await deps.redis.hincrby(deps.keys.counters, origin.by === 'seatflow' ? 'events.seatflow' : 'events.outside', 1);
  }
  return summary;
}

async function handleOutside(event: CallbackEvent & { id: number }, origin: Extract<EventOrigin, { by: 'outside' }>, callback: Callback, step: Stepper, deps: CallbackHandlingDeps): Promise<number> {
  const actorEmail = event.userId === undefined ? undefined : await deps.emailOf(event.userId).catch(() => undefined);
  const change = outsideChangeOf(event, callback.scopeObjectId, origin.why, actorEmail);
  const by = origin.why === 'own-account-not-seatflow' ? 'own-account' : 'outside';
  const seat = change.seatType === undefined ? {} : { seatType: change.seatType };
  await step.once('heard', () => deps.userEvents.record(change.userId, { event: change.event, by, at: change.at, summary: describeOutsideChange(change), planId: change.planId, ...seat }));
  // Once per event (its fingerprint), however often it is made again: on a new master, or by a retried handling.
  const append = () =>
    deps.audit.appendOnce(
      {
        event: 'change.outside',
        actor: change.actorEmail ?? (change.actorId === undefined ? SERVICE_ACTOR : `user:${change.actorId}`),
        subject: change.email ?? `user:${change.userId}`,
        data: { ...change, webhookId: callback.webhookId, summary: describeOutsideChange(change) },
      },
      `change.outside:${step.fingerprint}`,
    );
  await step.once('audit', async () => {
    await (deps.keptOnReplica === undefined ? append() : deps.keptOnReplica(append));
  });
  let drifts = 0;
  if (deps.drift !== undefined) {
    const drift = deps.drift;
    for (const policy of await drift.policies()) {
      const policyKey = createHash('sha256').update(policy.path).digest('hex').slice(0, 12);
      const found = await step.memo(`drift:${policyKey}`, async () => (await drift.check(change, policy).catch((error: unknown) => skipPolicy(policy, error, deps))) ?? null);
      if (found === null) continue;
      drifts += 1;
      await step.once(`acted:${policyKey}`, async () => {
        const reconciled: DriftReconciliation | undefined = await actOnDrift(found, change, {
          notifier: deps.notifier,
          ...(drift.reconcile === undefined ? {} : { reconcile: drift.reconcile }),
          target: deps.target,
          sim: deps.sim,
          id: `drift:${step.fingerprint}:${policyKey}`,
        });
        deps.logger.info({ user: found.email, policy: policy.path, seatNow: found.seatNow, seatWanted: found.seatWanted, reconciled }, 'drift after a change made outside seatflow');
      });
    }
  }
  await step.once('lifecycles', () => deps.personChangedElsewhere(deps.target, change.userId, change));
  return drifts;
}

/**
 * A policy that cannot be read (a file moved, a bad rule: a refusal of seatflow's) is skipped for this event, and said;
 * anything else (the service or Redis not answering) fails the job, which is tried again.
 */
function skipPolicy(policy: PolicyInForce, error: unknown, deps: CallbackHandlingDeps): undefined {
  if (!(error instanceof UsageError)) throw error;
  deps.logger.warn({ err: error, policy: policy.path, from: policy.from }, 'could not read a policy to check it for drift; skipped for this event');
  return undefined;
}

interface Stepper {
  fingerprint: string;
  once(stage: string, work: () => Promise<void>): Promise<void>;
  memo<T>(stage: string, work: () => Promise<T>): Promise<T>;
  finish(): Promise<void>;
}

/** The stages of one event already done (the event's hash in Redis), and how to mark the next ones. */
function stepper(redis: RedisClient, key: string, done: Record<string, string>): Stepper {
  const mark = async (stage: string, value: string) => {
    await writeTogether(redis, [key], [['HSET', key, stage, value], ['EXPIRE', key, EVENT_MEMORY_SECONDS]]);
  };
  return {
    fingerprint: key.slice(key.lastIndexOf(':') + 1),
    async once(stage, work) {
      if (done[stage] !== undefined) return;
      await work();
      await mark(stage, '1');
    },
    async memo<T>(stage: string, work: () => Promise<T>): Promise<T> {
      const kept = done[stage];
      if (kept !== undefined) return JSON.parse(kept) as T;
      const value = await work();
      await mark(stage, JSON.stringify(value));
      return value;
    },
    finish: () => mark('finished', new Date().toISOString()),
  };
}
