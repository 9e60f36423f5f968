import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import type { LastRun, ScheduleData } from '../reconcile/schedule-book.js';
import type { ScheduledSync } from '../reconcile/schedule-worker.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import { runSync, type SyncApproval, type SyncRun } from './run-sync.js';
import { changesOf } from './sync-plan.js';

export interface ScheduledSyncOptions {
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  offboarding: OffboardingSystem;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  target: string;
  reportDir: string;
  /** Now on the service clock. */
  now: () => number;
  /** The approvals gate of a schedule's run (as `schedule:<name>`); absent: applied at once. */
  approve?: (data: ScheduleData) => SyncApproval;
}

/**
 * A sync schedule's firing: `seatflow sync EXPORT --policy P [--apply]` as a tick runs it. Nobody can answer a prompt
 * or confirm a broken export: a run above the guardrails goes on only within the schedule's own limits, and a broken
 * export is held (the next export is compared with the last accepted one, not with the broken one).
 */
export function createScheduledSync(options: ScheduledSyncOptions): ScheduledSync {
  return async (data, tick) => {
    if (data.exportPath === undefined) throw new Error(`schedule ${data.name} is a sync schedule without an HR export`);
    const run = await runSync({
      exportPath: data.exportPath,
      policyPath: data.policyPath,
      api: options.api,
      offboarding: options.offboarding,
      config: options.config,
      target: options.target,
      apply: data.apply,
      acceptMissing: false,
      confirmGuardrails: () => Promise.resolve(data.limits !== undefined),
      ...(data.limits === undefined ? {} : { scheduleLimits: data.limits }),
      reportDir: options.reportDir,
      now: options.now,
      ...(options.approve === undefined ? {} : { approve: options.approve(data) }),
    });
    return lastRunOfSync(run, data, tick, new Date());
  };
}

/** What `schedule list` keeps of a sync run. */
export function lastRunOfSync(run: SyncRun, data: Pick<ScheduleData, 'name' | 'apply'>, tick: Date, finishedAt: Date): LastRun {
  const base = { tick: tick.toISOString(), finishedAt: finishedAt.toISOString() };
  if (run.kind === 'same-export') {
    return { ...base, runId: run.previous.runId, applied: false, nothingToChange: true, plan: {}, policySha256: '', report: '' };
  }
  const { plan, disposition, applied } = run;
  const leavers = plan.leavers?.leavers ?? [];
  const workflows = applied === undefined ? [] : [applied.joiners?.workflowId, applied.movers?.workflowId, applied.offboarding?.workflowId].filter((id): id is string => id !== undefined);
  return {
    ...base,
    runId: plan.runId,
    applied: disposition.applied,
    ...(disposition.heldBecause === undefined ? {} : { heldBecause: disposition.heldBecause }),
    ...(disposition.awaitingApproval === undefined ? {} : { awaitingApproval: disposition.awaitingApproval }),
    ...(disposition.nothingToChange === true ? { nothingToChange: true } : {}),
    plan: {
      change: changesOf(plan),
      joiners: plan.joiners.filter((joiner) => joiner.verdict === 'change').length,
      movers: plan.movers.filter((mover) => mover.verdict === 'change').length,
      leavers: leavers.filter((leaver) => leaver.verdict !== 'refused').length,
      refused: plan.joiners.filter((joiner) => joiner.verdict !== 'change').length + plan.movers.filter((mover) => mover.verdict !== 'change').length + leavers.filter((leaver) => leaver.verdict === 'refused').length,
      notInExport: plan.notInExport.length,
    },
    policySha256: plan.policy.sha256,
    report: run.report.json,
    ...(workflows.length === 0 ? {} : { workflows }),
  };
}
