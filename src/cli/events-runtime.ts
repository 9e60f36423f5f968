import path from 'node:path';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Actor } from '../governance/operators/actor.js';
import type { DriftReconciliation, ReconcileDrift } from '../events/act-on-drift.js';
import { checkReconciliationDrift, type PolicyInForce } from '../events/drift-check.js';
import { checkLifecycleDrift, createHrRecords } from '../events/lifecycle-drift.js';
import { policiesInForce } from '../events/policies-in-force.js';
import type { OutsideChange } from '../events/outside-change.js';
import { createQueueKeys } from '../queue/queue-keys.js';
import { createReplicatedWrites } from '../queue/redis/replicated-write.js';
import { createEventKeys, type EventKeys } from '../events/event-keys.js';
import { createCallbackInbox, startEventWorker } from '../events/event-queue.js';
import { handleCallback } from '../events/handle-callback.js';
import { createOwnChangeLedger } from '../events/own-change-ledger.js';
import type { PersonChangedElsewhere } from '../events/person-changed-elsewhere.js';
import { createProvisionalTracker, type ProvisionalTracker } from '../events/provisional-tracker.js';
import { createSubscriptionStore, type SubscriptionStore } from '../events/subscription-store.js';
import { createUserEventLog } from '../events/user-event-log.js';
import { CALLBACK_PATH, createCallbackIntake, type CallbackIntake } from '../events/take-callback.js';
import type { ScheduleBook } from '../reconcile/schedule-book.js';
import { runReconciliation } from '../reconcile/run-reconciliation.js';
import type { BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { reconciliationApproval } from './governance-runtime.js';
import { reconcileReportDir } from './reconcile-runtime.js';

/** Who a drift's reconciliation asks for approval as: the event handling, so that any approver may approve it. */
const DRIFT_ACTOR: Actor = { name: 'events:drift', role: 'operator', via: 'schedule' };

export function eventKeysOf(runtime: CliRuntime, batch: BatchRuntime): EventKeys {
  return createEventKeys(runtime.config.redis.queuePrefix, batch.target);
}

export function subscriptionStoreOf(runtime: CliRuntime, batch: BatchRuntime): SubscriptionStore {
  return createSubscriptionStore(batch.redis.client, eventKeysOf(runtime, batch));
}

export function provisionalTrackerOf(runtime: CliRuntime, batch: BatchRuntime): ProvisionalTracker {
  return createProvisionalTracker(batch.redis.client, eventKeysOf(runtime, batch));
}

/**
 * The URL the service calls: config events.callbackUrl, else `seatflow serve`'s own address by config control.host and
 * control.port (none when serve picks a free port: then only --url can say it).
 */
export function callbackUrlOf(runtime: CliRuntime): string | undefined {
  const { events, control } = runtime.config;
  if (events.callbackUrl !== undefined) return events.callbackUrl;
  if (control.port === 0) return undefined;
  const host = control.host === '0.0.0.0' ? '127.0.0.1' : control.host.includes(':') ? `[${control.host}]` : control.host;
  return `http://${host}:${control.port}${CALLBACK_PATH}`;
}

export interface EventHandling {
  intake: CallbackIntake;
  provisional: ProvisionalTracker;
  close(graceMs: number): Promise<void>;
}

export interface EventHandlingOptions {
  /** A client on the shared request budget that retries its reads; absent without an access token (no drift then). */
  api: SmartsheetApi | undefined;
  /** The target's schedules: the policies they run are held against changes made elsewhere. */
  schedules?: Pick<ScheduleBook, 'list'>;
  /** How the lifecycles re-check a person changed elsewhere (the workflow engine's `changedElsewhere`). */
  personChangedElsewhere: PersonChangedElsewhere;
}

/**
 * The service's events on `seatflow serve` (docs/events.md): the callback endpoint's intake, and the worker that
 * handles what it took (whose change, the audit trail, Provisional Members, drift, the lifecycles).
 */
export function startEventHandling(runtime: CliRuntime, batch: BatchRuntime, options: EventHandlingOptions): EventHandling {
  const { config, logger } = runtime;
  const keys = eventKeysOf(runtime, batch);
  const { redis } = batch;
  const subscriptions = createSubscriptionStore(redis.client, keys);
  const provisional = createProvisionalTracker(redis.client, keys);
  const connection = { connection: redis.bullmqConnection(), prefix: config.redis.queuePrefix, target: batch.target, logger };
  const inbox = createCallbackInbox({ ...connection, replicas: redis.replicaAcks });
  const { api } = options;
  const intake = createCallbackIntake({
    redis: redis.client,
    keys,
    subscriptions,
    inbox,
    serviceNow: async (fresh) => {
      if (fresh) await runtime.serviceClock.refresh();
      return runtime.serviceClock.now();
    },
    toleranceMs: config.events.toleranceSeconds * 1000,
    ...(api === undefined ? {} : { readSecret: async (webhookId: number) => (await api.webhooks.get(webhookId)).sharedSecret }),
    rotationGraceMs: config.events.rotationGraceMinutes * 60_000,
    now: Date.now,
    logger,
  });
  const ledger = createOwnChangeLedger(redis.client, keys, { windowMs: config.events.ownCallWindowMinutes * 60_000 });
  // The audit trail shares the batches' client (governance.ts): a wait for replicas there covers its appends.
  const auditWrites = createReplicatedWrites({ redis: redis.client, replicas: redis.replicaAcks, logger, what: 'audit entry of a change made elsewhere' });
  const auditKey = createQueueKeys(config.redis.queuePrefix).auditLog;
  const emails = new Map<number, string>();
  const worker = startEventWorker({
    ...connection,
    handle: async (callback) => {
      const subscription = await subscriptions.get();
      // Unsubscribed since it was taken: nothing of seatflow's is watching any more.
      if (subscription === undefined || subscription.webhookId !== callback.webhookId) return { skipped: 'not subscribed any more' };
      const summary = await handleCallback(callback, subscription, {
        redis: redis.client,
        keys,
        target: batch.target,
        sim: runtime.sim !== undefined || batch.target.startsWith('sim:'),
        ledger,
        provisional,
        userEvents: createUserEventLog(redis.client, keys),
        audit: batch.governance.audit,
        keptOnReplica: (write) => auditWrites.write(auditKey, write),
        notifier: batch.governance.notifier,
        changeAgent: config.api.changeAgent,
        emailOf: async (userId) => {
          if (api === undefined) return undefined;
          const known = emails.get(userId);
          if (known !== undefined) return known;
          const email = (await api.users.get(userId)).email.toLowerCase();
          emails.set(userId, email);
          return email;
        },
        ...(api === undefined ? {} : { drift: driftOf(runtime, batch, api, options.schedules) }),
        personChangedElsewhere: options.personChangedElsewhere,
        now: Date.now,
        logger,
      });
      logger.info({ webhook: callback.webhookId, ...summary }, 'callback handled');
      return summary;
    },
  });
  return {
    intake,
    provisional,
    async close(graceMs) {
      await worker.close(graceMs);
      await inbox.close();
    },
  };
}

function driftOf(runtime: CliRuntime, batch: BatchRuntime, api: SmartsheetApi, schedules: Pick<ScheduleBook, 'list'> | undefined) {
  const { config } = runtime;
  const records = createHrRecords(batch.redis.client, createQueueKeys(config.redis.queuePrefix), batch.target);
  const reconcile: ReconcileDrift = async (drift, runAt) => {
    const run = await runReconciliation({
      policyPath: drift.policy.path,
      api,
      guardrails: config.guardrails,
      clock: runtime.serviceClock,
      // Named by the policy, the user and the change's time: the same change reconciled twice finds one batch.
      runKey: `drift-${path.basename(drift.policy.path, path.extname(drift.policy.path))}-${drift.email}`,
      runAt,
      apply: true,
      system: batch.system,
      // Nobody is there to confirm: a reconciliation over the guardrails is held, and says so.
      confirmGuardrails: async () => false,
      reportDir: reconcileReportDir(runtime),
      approve: reconciliationApproval(batch, DRIFT_ACTOR, `drift: ${drift.email} holds ${drift.seatNow ?? 'an unknown seat'} after a change outside seatflow`),
      onlyEmails: [drift.email],
    });
    return reconciliationOf(run.disposition);
  };
  return {
    // Schedules that cannot be listed (Redis busy) leave only the configured policies for this event.
    policies: () => policiesInForce(config.events.policies, schedules === undefined ? undefined : { list: () => schedules.list().catch(() => []) }),
    check: (change: OutsideChange, policy: PolicyInForce) => {
      const options = { api, guardrails: config.guardrails, now: new Date(runtime.serviceClock.now()) };
      return policy.kind === 'lifecycle' ? checkLifecycleDrift(change, policy, { ...options, records }) : checkReconciliationDrift(change, policy, options);
    },
    reconcile,
  };
}

function reconciliationOf(disposition: Awaited<ReturnType<typeof runReconciliation>>['disposition']): DriftReconciliation {
  if (disposition.batchId !== undefined) return { queued: disposition.batchId, existed: disposition.batchExisted ?? false };
  if (disposition.awaitingApproval !== undefined) return { awaitingApproval: disposition.awaitingApproval };
  if (disposition.heldBecause !== undefined) return { heldBecause: disposition.heldBecause };
  return { nothingToChange: true };
}

