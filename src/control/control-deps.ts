import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { BatchSystem } from '../queue/batch-system.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { ControlMigrationDeps } from './migration-deps.js';
import type { ScheduleBook } from '../reconcile/schedule-book.js';
import type { HrWorkflows } from '../sync/hr-workflows.js';
import type { RequestBudget } from '../queue/request-budget.js';
import type { SeatflowMetrics } from './metrics/seatflow-metrics.js';
import type { ServiceFacts } from '../plan/service-constraints.js';
import type { CallRate } from '../plan/calls-at-rate.js';
import type { ApprovalGate } from '../governance/approvals/approval-gate.js';
import type { ApprovalStore } from '../governance/approvals/approval-store.js';
import type { ChangeKinds } from '../governance/approvals/change-kind.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { DeliveryLog } from '../governance/notifications/delivery-log.js';
import { createOperatorDirectory, type OperatorDirectory } from '../governance/operators/operator-directory.js';
import type { DashboardSessionStore } from './auth/dashboard-session-store.js';
import type { ParseThread } from './parse-off-thread/parse-thread.js';
import type { CallbackIntake } from '../events/take-callback.js';
import type { ProvisionalTracker } from '../events/provisional-tracker.js';

/*
 * The deps of the control app: what `seatflow serve` (or a test) builds and hands to buildControlApp. Routes and
 * pages use request handlers (requests/), which use these types; this file imports none of them, so imports in
 * src/control point one way (.dependency-cruiser.json keeps it so).
 */

/**
 * Governance over HTTP (docs/governance.md): who each token or session is, the approvals gate every submission passes,
 * the audit trail, and the record of notification deliveries.
 */
export interface ControlGovernanceDeps {
  operators: OperatorDirectory;
  gate: ApprovalGate;
  approvals: Pick<ApprovalStore, 'list' | 'lines' | 'input'>;
  audit: AuditLog;
  /** How many ended rows' entries a worker's catch-up has still to append (shown by the trail's check). */
  pendingRowEntries?: () => Promise<number>;
  deliveries: DeliveryLog;
  /** How this server re-plans each kind of change it may approve. */
  kinds: ChangeKinds;
}

/** What the offboarding endpoints use: the workflow over the same Redis and target as the batches. */
export interface ControlOffboardingDeps {
  system: Pick<OffboardingSystem, 'store' | 'plan' | 'submit' | 'status' | 'undo' | 'listHolds' | 'reportRows' | 'retry'>;
  config: Parameters<OffboardingSystem['plan']>[1]['config'];
}

/** What a sync over HTTP uses: the target's workflows (with the joiners and movers lifecycles) and where its files go. */
export interface ControlSyncDeps {
  offboarding: OffboardingSystem;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  /** control.syncPolicyDir: the only folder a policy is read from. Absent: no sync over HTTP (409, saying so). */
  policyDir?: string | undefined;
  /** `<dataDir>/sync`, as `seatflow sync` uses it: plan reports here, uploaded exports kept under `uploads/`. */
  dir: string;
  /** Now on the service clock. */
  now: () => number;
  /** Reads the service's clock again before planning. */
  refreshClock?: () => Promise<void>;
}

/** The service the API acts on. */
export interface ControlTarget {
  /** Shown in answers: the API base URL, or a SIMULATION label. */
  label: string;
  /** The queue target of batches (`BatchSystem` target): the base URL, or `sim:<url>`; part of every batch id. */
  id: string;
  /** False when no access token is configured: plans and submissions answer 503, /readyz says why. */
  configured: boolean;
  sim: boolean;
}

/** What the batch endpoints use: the queue machinery over one Redis. */
export interface ControlBatchDeps {
  system: Pick<BatchSystem, 'store' | 'control' | 'submit' | 'queue'>;
  /** The client for the pre-flight of submitted batches: it takes from the fleet's shared request budget. */
  api: SmartsheetApi;
  /** The command connection, watched to answer 503 at once while Redis is down instead of waiting on it. */
  redis: Pick<RedisClient, 'status' | 'ping'>;
}

/** Who may talk to the API over HTTP, besides holding the token (against DNS rebinding and cross-site requests). */
export interface ControlHttpPolicy {
  /** The address the server binds: on loopback, only loopback Host names are accepted unless listed in allowedHosts. */
  bindHost: string;
  /** Host header names accepted besides loopback ones. Empty on a non-loopback binding: any Host. */
  allowedHosts: string[];
  /** Origins allowed besides the server's own. */
  allowedOrigins: string[];
  /** Requests per client address and window. */
  rateLimit: { max: number; perSeconds: number };
}

/** Everything `buildControlApp` needs; built by the composition root (`seatflow serve`) or by a test. */
export interface ControlDeps {
  logger: Logger;
  /** The bearer token callers must present, and the dashboard's sign-in; at least 32 characters. */
  token: string;
  target: ControlTarget;
  guardrails: Config['guardrails'];
  /** The target's region and externally managed users, for the plans (as `seatflow plan` has them from the config). */
  service?: ServiceFacts;
  /** The client for POST /v1/plans (reads only, like `seatflow plan`). */
  api: SmartsheetApi;
  /** The configured rate (config rateLimit): every plan answer and page says the calls applying it makes at this rate. */
  rate: CallRate;
  batches: ControlBatchDeps;
  /** The offboarding workflow (POST /v1/offboardings, status, undo, holds); its endpoints are absent without it. */
  offboarding?: ControlOffboardingDeps;
  /**
   * The reconciliation schedules of the target, for the dashboard's schedules page (which can run one now; adding
   * and removing stay in the CLI) and the schedule metrics. A book kept open by the server: one BullMQ connection for
   * its life, not one per page. Absent: no page.
   */
  schedules?: Pick<ScheduleBook, 'list' | 'runNow'>;
  /** Syncs from an uploaded HR export (POST /v1/syncs, the dashboard's sync form); absent: neither. */
  sync?: ControlSyncDeps;
  /** Migrations planned and queued from the dashboard (docs/migrations.md); absent: no page. */
  migrations?: ControlMigrationDeps;
  /** The joiners, movers and leavers to come (every lifecycle's steps), for the dashboard's page of them. Absent: no page. */
  upcoming?: Pick<HrWorkflows, 'upcoming'>;
  /** How long a Redis command may take before the request answers 503. Default 5000. */
  redisTimeoutMs?: number;
  /** Largest manifest body accepted, in bytes. Default 10 MiB. */
  bodyLimitBytes?: number;
  /** How long a plan may wait on the target before answering 503 with Retry-After. Default 20 000. */
  planTimeoutMs?: number;
  /** How long /readyz trusts its last check of the token against the target. Default 30 000. */
  readyCacheMs?: number;
  http?: Partial<ControlHttpPolicy>;
  /** The fleet's request budget for the target's token, shown on the batch page (calls, 429 pauses). */
  budget?: { budget: Pick<RequestBudget, 'counters' | 'pausedFor' | 'state'>; rate: Config['rateLimit'] };
  /** Served at GET /metrics when given. */
  metrics?: SeatflowMetrics;
  /**
   * Operators, approvals and the audit trail. Absent (tests of other parts): the control token is the one identity, an
   * admin, and submissions are queued at once.
   */
  governance?: ControlGovernanceDeps;
  /** Where dashboard sessions are kept (Redis in `seatflow serve`); default this process's memory. */
  sessions?: DashboardSessionStore;
  /** The most rows a manifest or leavers file may have to be planned over HTTP (413 above). Default 50 000. */
  maxPlanRows?: number;
  /** Where large uploads are parsed; buildControlApp starts one (and closes it with the app) when absent. */
  parseThread?: ParseThread;
  /** The service's callbacks to this server (docs/events.md#the-callback-endpoint); absent: no endpoint. */
  callbacks?: CallbackIntake;
  /** The Provisional Members tracked from the service's events, for the dashboard's page of them. Absent: no page. */
  provisional?: Pick<ProvisionalTracker, 'list'>;
  /** A review ending within this many days is shown as soon (config events.provisionalSoonDays). Default 7. */
  provisionalSoonDays?: number;
  /** The service's time (ms), for times that mean something to the service. Default this machine's clock. */
  serviceNow?: () => number;
}

/**
 * Who the app's tokens and sessions belong to: the configured operators (and the control token), or, without
 * governance, the control token alone as an admin.
 */
export function operatorsOf(deps: Pick<ControlDeps, 'governance' | 'token'>): OperatorDirectory {
  return deps.governance?.operators ?? createOperatorDirectory({ operators: [] }, deps.token);
}

/** The parse thread of the app (buildControlApp always sets one). */
export function parseThreadOf(deps: ControlDeps): ParseThread {
  if (deps.parseThread === undefined) throw new Error('ControlDeps.parseThread is set by buildControlApp');
  return deps.parseThread;
}
