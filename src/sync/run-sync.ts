import path from 'node:path';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import { UsageError } from '../core/seatflow-error.js';
import type { GuardrailCheck } from '../plan/guardrails.js';
import { checkRunLimits, SCHEDULE_LIMITS, type RunLimits } from '../reconcile/run-limits.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import { createAcceptedExports, type AcceptedExport } from './accepted-exports.js';
import { applySync, type AppliedSync } from './apply-sync.js';
import { loadLifecyclePolicy } from './load-lifecycle-policy.js';
import { planSync } from './plan-sync.js';
import { readHrExport, type HrExport } from './read-hr-export.js';
import { changesOf, type SyncPlan } from './sync-plan.js';
import type { SyncDisposition } from './sync-disposition.js';
import { writeSyncReport } from './sync-report.js';
import { SyncNotAcknowledgedError } from './sync-not-acknowledged.js';
import { NoReplicaError } from '../queue/redis/replicated-write.js';

/** What a sync is planned from: the export and the policy (read now), against the target's live state. */
export interface PrepareSyncOptions {
  exportPath: string;
  /** The export as it was read when a change request was made (its approval plans exactly those bytes again). */
  exportContent?: { bytes: Buffer; modifiedAt: number };
  policyPath: string;
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  /** The offboarding workflow with the joiners and movers lifecycles on its engine (the target's). */
  offboarding: OffboardingSystem;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  target: string;
  /** Now on the service clock. */
  now: () => number;
}

export interface RunSyncOptions extends PrepareSyncOptions {
  /** Queue the plan; without it the run only writes its plan report (and accepts nothing). */
  apply: boolean;
  /** The person confirms an export that crosses the accidental-deletion threshold (`--accept-missing`). */
  acceptMissing: boolean;
  /** Asked when the plan crosses config guardrails; a schedule answers as its limits say. */
  confirmGuardrails: (check: GuardrailCheck) => Promise<boolean>;
  /** A schedule's own limits on the changes of one run (`schedule add --max-changes/--max-share`). */
  scheduleLimits?: RunLimits;
  /**
   * The approvals gate between the plan and the queue (src/governance): given the plan and how to apply it, it
   * applies now or leaves the run waiting for approval. Absent: applied at once.
   */
  approve?: SyncApproval;
  /** Folder of the run's plan report. */
  reportDir: string;
}

/** How a run passes the approvals gate: what applying queued, or the change request it waits as. */
export type SyncApproval = (run: { plan: SyncPlan; apply: () => Promise<AppliedSync> }) => Promise<{ applied: AppliedSync } | { awaitingApproval: string; created: boolean }>;

export type SyncRun =
  | { kind: 'same-export'; hrExport: HrExport; previous: AcceptedExport }
  | { kind: 'planned'; hrExport: HrExport; plan: SyncPlan; disposition: SyncDisposition; applied?: AppliedSync; report: { csv: string; json: string } };

/** A sync read and planned, and how to apply exactly that plan. */
export type PreparedSync =
  | { kind: 'same-export'; hrExport: HrExport; previous: AcceptedExport }
  | { kind: 'planned'; hrExport: HrExport; plan: SyncPlan; apply: () => Promise<AppliedSync> };

/** Refused: the export is older than the one this target and policy last accepted. Exit 2, nothing planned. */
export class StaleExportError extends UsageError {}

/**
 * Reads the policy and the export and plans the sync: the same export as the last accepted is no run; an older one is
 * refused. Shared by `seatflow sync`, a schedule's run and the approval of a sync that waited (which plans it again).
 */
export async function prepareSync(options: PrepareSyncOptions): Promise<PreparedSync> {
  const policy = await loadLifecyclePolicy(options.policyPath);
  const hrExport = await readHrExport({
    path: options.exportPath,
    policy: policy.policy,
    lastDayEndsAt: policy.policy.leavers.lastDayEndsAt ?? options.config.offboarding.lastDayEndsAt,
    maxRows: options.config.guardrails.maxRows,
    ...(options.exportContent === undefined ? {} : { content: options.exportContent }),
  });
  const { redis, keys } = options.offboarding.engine.context;
  const accepted = createAcceptedExports(redis, keys, options.target, policy.key);
  const previous = await accepted.meta();
  if (previous?.sha256 === hrExport.sha256) return { kind: 'same-export', hrExport, previous };
  if (previous !== undefined && hrExport.exportedAt < previous.exportedAt) {
    throw new StaleExportError(
      `the HR export ${hrExport.path} was written ${new Date(hrExport.exportedAt).toISOString()} (${describeTime(hrExport.exportedAtFrom)}), before the export this target and policy last accepted (${new Date(previous.exportedAt).toISOString()}, ${previous.file}, accepted ${previous.acceptedAt}): an older export is refused, nothing was planned`,
      'Give the newest export. The policy\'s "exportTime" says where the time is read ("column": its generatedAt column; "file-modified": the file\'s time).',
    );
  }
  const plan = await planSync({ api: options.api, hrExport, policy, accepted, offboarding: options.offboarding, config: options.config, target: options.target, now: options.now() });
  const apply = () => applySync(plan, { offboarding: options.offboarding, accepted, sendEmail: policy.policy.joiners.sendEmail, timeZone: policy.policy.timeZone });
  return { kind: 'planned', hrExport, plan, apply };
}

/**
 * Why an applied run changes nothing: a broken export not confirmed, a schedule's limits crossed, the guardrails not
 * confirmed. Empty: it may be applied.
 */
export async function heldReasons(plan: SyncPlan, options: Pick<RunSyncOptions, 'acceptMissing' | 'scheduleLimits' | 'confirmGuardrails'>): Promise<string[]> {
  const held: string[] = [];
  if (plan.missing.broken && !options.acceptMissing) held.push(describeMissing(plan));
  if (options.scheduleLimits !== undefined) held.push(...checkRunLimits(changesOf(plan), plan.organizationUsers, options.scheduleLimits, SCHEDULE_LIMITS).reasons);
  if (held.length === 0 && plan.guardrails.needsConfirmation && !(await options.confirmGuardrails(plan.guardrails))) {
    held.push(...plan.guardrails.reasons.map((reason) => `${reason} (not confirmed)`));
  }
  return held;
}

/**
 * One sync: planned (prepareSync), and with `apply` queued through the approvals gate unless it is held (then nothing
 * changes and the run says why); the plan report written either way.
 */
export async function runSync(options: RunSyncOptions): Promise<SyncRun> {
  const prepared = await prepareSync(options);
  if (prepared.kind === 'same-export') return prepared;
  const { hrExport, plan } = prepared;
  let disposition: SyncDisposition = { runId: plan.runId, applied: false };
  let applied: AppliedSync | undefined;
  if (options.apply) {
    const held = await heldReasons(plan, options);
    if (held.length > 0) disposition = { runId: plan.runId, applied: false, heldBecause: held };
    else {
      const passed = await notAcknowledgedWithReport(plan, options, () => (options.approve === undefined ? prepared.apply().then((made) => ({ applied: made })) : options.approve({ plan, apply: prepared.apply })));
      if ('awaitingApproval' in passed) disposition = { runId: plan.runId, applied: false, awaitingApproval: passed.awaitingApproval, requestCreated: passed.created };
      else {
        applied = passed.applied;
        disposition = { runId: plan.runId, applied: true, ...(changesOf(plan) === 0 ? { nothingToChange: true } : {}) };
      }
    }
  }
  const report = await writeSyncReport(plan, disposition, applied, reportStem(plan, options.reportDir));
  return { kind: 'planned', hrExport, plan, disposition, ...(applied === undefined ? {} : { applied }), report };
}

/**
 * A run refused as not acknowledged (no Redis replica took one of its workflows in time) may still be kept and run:
 * its report is written first, naming the workflows it would be kept as, and the refusal names the report.
 */
async function notAcknowledgedWithReport<T>(plan: SyncPlan, options: RunSyncOptions, apply: () => Promise<T>): Promise<T> {
  try {
    return await apply();
  } catch (error) {
    if (!(error instanceof NoReplicaError)) throw error;
    const report = await writeSyncReport(plan, { runId: plan.runId, applied: false, notAcknowledged: true }, undefined, reportStem(plan, options.reportDir));
    throw new SyncNotAcknowledgedError(error, plan.runId, report);
  }
}

/** Why a broken export changes nothing, and how to go on if it is not broken. */
export function describeMissing(plan: Pick<SyncPlan, 'missing' | 'previous'>): string {
  const { missing } = plan;
  const what = plan.previous === undefined ? `of the organization's ${missing.base} users` : `of the ${missing.base} employees of the last accepted export`;
  const absent = Math.max(missing.gone, missing.absentLeavers);
  return (
    `the export lacks ${absent} ${what} (${(100 * missing.share).toFixed(1)}%, at or above the policy's safety.maxMissingShare of ${(100 * missing.threshold).toFixed(0)}%): ` +
    'taken as a broken export, not a layoff, so nothing was changed; if they really left, run the sync again with --accept-missing'
  );
}

function describeTime(from: 'column' | 'file-modified'): string {
  return from === 'column' ? 'its generatedAt column' : "the file's modification time";
}

/** `<reportDir>/acme-hr-20261123T020000Z-1a2b3c4d5e6f`: the run's report files, sorted by time. */
function reportStem(plan: SyncPlan, reportDir: string): string {
  const key = (plan.policy.key.startsWith('file:') ? path.basename(plan.policy.path, path.extname(plan.policy.path)) : plan.policy.key).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return path.join(reportDir, `${key}-${new Date(plan.plannedAt).toISOString().replace(/[-:]|\.\d+/g, '')}-${plan.export.sha256.slice(0, 12)}`);
}
