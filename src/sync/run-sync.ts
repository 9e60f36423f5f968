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
import { writeSyncReport } from './sync-report.js';

export interface RunSyncOptions {
  exportPath: string;
  policyPath: string;
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  /** The offboarding workflow with the joiners and movers lifecycles on its engine (the target's). */
  offboarding: OffboardingSystem;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  target: string;
  /** Queue the plan; without it the run only writes its plan report (and accepts nothing). */
  apply: boolean;
  /** The person confirms an export that crosses the accidental-deletion threshold (`--accept-missing`). */
  acceptMissing: boolean;
  /** Asked when the plan crosses config guardrails; a schedule answers as its limits say. */
  confirmGuardrails: (check: GuardrailCheck) => Promise<boolean>;
  /** A schedule's own limits on the changes of one run (`schedule add --max-changes/--max-share`). */
  scheduleLimits?: RunLimits;
  /** Folder of the run's plan report. */
  reportDir: string;
  /** Now on the service clock. */
  now: () => number;
}

/** What happened to a planned run: applied, held (and why), or only planned. */
export interface SyncDisposition {
  runId: string;
  applied: boolean;
  heldBecause?: string[];
  /** Applied, and nothing needed to change: the export is accepted, no workflow was made. */
  nothingToChange?: boolean;
}

export type SyncRun =
  | { kind: 'same-export'; hrExport: HrExport; previous: AcceptedExport }
  | { kind: 'planned'; hrExport: HrExport; plan: SyncPlan; disposition: SyncDisposition; applied?: AppliedSync; report: { csv: string; json: string } };

/** Refused: the export is older than the one this target and policy last accepted. Exit 2, nothing planned. */
export class StaleExportError extends UsageError {}

/**
 * One sync: read the policy and the export; the same export as the last accepted does nothing; an older one is
 * refused; otherwise plan, and with `apply` queue the plan unless it is held (a broken export not confirmed, the
 * guardrails not confirmed, a schedule's limits crossed: then nothing changes and the run says why); write the plan
 * report either way.
 */
export async function runSync(options: RunSyncOptions): Promise<SyncRun> {
  const policy = await loadLifecyclePolicy(options.policyPath);
  const hrExport = await readHrExport({ path: options.exportPath, policy: policy.policy, lastDayEndsAt: policy.policy.leavers.lastDayEndsAt ?? options.config.offboarding.lastDayEndsAt, maxRows: options.config.guardrails.maxRows });
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
  let disposition: SyncDisposition = { runId: plan.runId, applied: false };
  let applied: AppliedSync | undefined;
  if (options.apply) {
    const held: string[] = [];
    if (plan.missing.broken && !options.acceptMissing) held.push(describeMissing(plan));
    const changes = changesOf(plan);
    if (options.scheduleLimits !== undefined) held.push(...checkRunLimits(changes, plan.organizationUsers, options.scheduleLimits, SCHEDULE_LIMITS).reasons);
    if (held.length === 0 && plan.guardrails.needsConfirmation && !(await options.confirmGuardrails(plan.guardrails))) {
      held.push(...plan.guardrails.reasons.map((reason) => `${reason} (not confirmed)`));
    }
    if (held.length > 0) disposition = { runId: plan.runId, applied: false, heldBecause: held };
    else {
      applied = await applySync(plan, { offboarding: options.offboarding, accepted, sendEmail: policy.policy.joiners.sendEmail, timeZone: policy.policy.timeZone });
      disposition = { runId: plan.runId, applied: true, ...(changes === 0 ? { nothingToChange: true } : {}) };
    }
  }
  const report = await writeSyncReport(plan, disposition, applied, path.join(options.reportDir, reportStem(plan)));
  return { kind: 'planned', hrExport, plan, disposition, ...(applied === undefined ? {} : { applied }), report };
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

/** `acme-hr-20261123T020000Z-1a2b3c4d5e6f`: the run's report files, sorted by time. */
function reportStem(plan: SyncPlan): string {
  const key = (plan.policy.key.startsWith('file:') ? path.basename(plan.policy.path, path.extname(plan.policy.path)) : plan.policy.key).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return `${key}-${new Date(plan.plannedAt).toISOString().replace(/[-:]|\.\d+/g, '')}-${plan.export.sha256.slice(0, 12)}`;
}
