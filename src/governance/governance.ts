import type { GovernanceConfig } from '../core/governance-config.js';
import type { Logger } from '../core/logger.js';
import { combineStoreHooks, createBatchStore, type BatchStoreHooks } from '../queue/batch-store.js';
import { createQueueKeys, tokenKey } from '../queue/queue-keys.js';
import type { RedisHandle } from '../queue/redis/open-redis.js';
import { createApprovalGate, type ApprovalGate } from './approvals/approval-gate.js';
import { checkApprovalPolicy } from './approvals/approval-policy.js';
import { createApprovalStore, type ApprovalStore } from './approvals/approval-store.js';
import { createAuditLog, type AuditLog } from './audit/audit-log.js';
import { recordConfigIfChanged } from './audit/record-config.js';
import { auditRowHooks, type KeepAppend } from './audit/row-audit.js';
import { startRowEntryCatchUp, type RowEntryCatchUp } from './audit/row-entry-catch-up.js';
import { createRedisClock } from '../queue/redis/redis-clock.js';
import { createReplicatedWrites } from '../queue/redis/replicated-write.js';
import { batchNotificationHooks } from './notifications/batch-notifications.js';
import { createDeliveryLog, type DeliveryLog } from './notifications/delivery-log.js';
import { startNotificationWorker, type NotificationWorker } from './notifications/notification-worker.js';
import { createQueueNotifier, type QueueNotifier } from './notifications/notifier.js';
import { createRateLimitWatch } from './notifications/rate-limit-watch.js';

export interface GovernanceOptions {
  redis: RedisHandle;
  /** config `redis.queuePrefix`. */
  prefix: string;
  governance: GovernanceConfig;
  /** The queue target of this process (API base URL or `sim:<url>`). */
  target: string;
  sim: boolean;
  logger: Logger;
  now?: () => Date;
}

/** Governance over one Redis, assembled once per process by the composition roots (CLI, control API). */
export interface Governance {
  audit: AuditLog;
  approvals: ApprovalStore;
  gate: ApprovalGate;
  notifier: QueueNotifier;
  deliveries: DeliveryLog;
  /** The batch store's observers: a `row.applied` audit entry per row, notifications when a batch finishes. */
  storeHooks: BatchStoreHooks;
  /** The client's response hook that sends `budget.paused` on repeated 429s of this access token. */
  rateLimitWatch(accessToken: string): (status: number) => void;
  /**
   * Appends the `row.applied` entries a crash left out (a row's outcome recorded, its entry not yet), at once and then
   * periodically, until closed: run by workers (and serve with workers). Never throws (a failure is logged; the next
   * look tries again).
   */
  startRowEntryCatchUp(options?: { everyMs?: number }): RowEntryCatchUp;
  /** How many ended rows' entries the catch-up has still to append (`audit verify` reports them as pending). */
  pendingRowEntries(): Promise<number>;
  /** Appends `config.loaded` when the configuration files changed since they were last recorded. */
  recordConfig(files: readonly string[], actor: string): Promise<void>;
  /** Sends notifications from this process until closed (worker, serve). */
  startNotificationWorker(options?: { sweepEveryMs?: number }): NotificationWorker;
  close(): Promise<void>;
}

export function createGovernance(options: GovernanceOptions): Governance {
  const { redis, governance, logger } = options;
  const keys = createQueueKeys(options.prefix);
  const audit = createAuditLog(redis.client, keys, options.now === undefined ? {} : { now: options.now });
  const approvals = createApprovalStore(redis.client, keys);
  const deliveries = createDeliveryLog(redis.client, keys);
  const notifier = createQueueNotifier({ connection: redis.bullmqConnection(), prefix: options.prefix, settings: governance.notifications, logger });
  const gate = createApprovalGate({ store: approvals, audit, notifier, policy: checkApprovalPolicy(governance.approvals), ...(options.now === undefined ? {} : { now: options.now }) });
  // A store of our own (without hooks) to read a finished batch's record and rows for its messages.
  const reader = createBatchStore(redis.client, keys);
  // A row's audit entry is kept once a replica holds it (behind Sentinel); only then does the row's note go.
  const entryWrites = createReplicatedWrites({ redis: redis.client, replicas: redis.replicaAcks, logger, what: "row's audit entry" });
  const keep: KeepAppend = (append) => entryWrites.write(keys.auditHead, append);
  const workers: NotificationWorker[] = [];
  const catchUps: RowEntryCatchUp[] = [];
  return {
    audit,
    approvals,
    gate,
    notifier,
    deliveries,
    storeHooks: combineStoreHooks(auditRowHooks(audit, reader.unrecordedEnds, logger, keep), batchNotificationHooks(reader, notifier, logger)),
    startRowEntryCatchUp(catchUp = {}) {
      const started = startRowEntryCatchUp({ audit, store: reader, clock: createRedisClock(redis.client), logger, keep, ...catchUp });
      catchUps.push(started);
      return started;
    },
    pendingRowEntries: () => reader.unrecordedEnds.count(),
    rateLimitWatch: (accessToken) =>
      createRateLimitWatch({ redis: redis.client, keys, notifier, tokenKey: tokenKey(accessToken), threshold: governance.notifications.rateLimitedAfter, target: options.target, sim: options.sim, logger }),
    async recordConfig(files, actor) {
      try {
        await recordConfigIfChanged(redis.client, keys, audit, files, actor);
      } catch (error) {
        logger.warn({ err: error }, 'could not record the configuration in the audit log');
      }
    },
    startNotificationWorker(workerOptions = {}) {
      const worker = startNotificationWorker({ connection: redis.bullmqConnection(), prefix: options.prefix, settings: governance.notifications, deliveries, notifier, logger, ...workerOptions });
      workers.push(worker);
      return worker;
    },
    async close() {
      await Promise.all([...workers.splice(0).map((worker) => worker.close(5000)), ...catchUps.splice(0).map((catchUp) => catchUp.close())]);
      await notifier.close();
    },
  };
}
