import path from 'node:path';
import type { Command } from 'commander';
import { printed } from '../../core/printable.js';
import { runSync, type SyncRun } from '../../sync/run-sync.js';
import { formatSyncPlan } from '../../sync/format-sync-plan.js';
import { syncSummary } from '../../sync/sync-report.js';
import { createBudgetedApi, openBatchRuntime, type BatchRuntime } from '../batch-runtime.js';
import { withCliRuntime, type CliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { confirmOnTerminal } from '../manifest-options.js';
import { openOffboarding } from '../offboarding-runtime.js';
import { appliedSyncToEnd } from '../applied-sync-to-end.js';
import { syncReportDir } from '../sync-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { awaitingApprovalText, syncApproval } from '../governance-runtime.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';

interface SyncFlags extends CommonFlags, RequestFlags {
  policy: string;
  apply?: boolean;
  yes?: boolean;
  acceptMissing?: boolean;
  wait?: boolean;
  json?: boolean;
}

/**
 * `seatflow sync HR_EXPORT --policy lifecycle.json`: joiners, movers and leavers from tonight's HR export, planned
 * against the live organization and the last accepted export (changes nothing); with --apply queued as workflows of
 * their lifecycles (what is due now runs here unless --no-wait; the rest waits for `seatflow worker`), and the export
 * accepted. Exit 0 done or planned, 1 someone failed, 2 the export, the policy, the threshold or the guardrails refused.
 */
export function defineSyncCommand(command: Command): void {
  command
    .argument('<hr-export>', 'the HR export (CSV, JSON or JSON Lines): one row per employee')
    .requiredOption('--policy <file>', 'the lifecycle policy (JSON): columns, statuses, seats by department/title/location, leavers, protection; see jobs/examples/lifecycle-policy.json')
    .option('--apply', 'queue the plan and accept the export (without it nothing changes)')
    .option('--yes', 'confirm changes above the guardrails without a prompt')
    .option('--accept-missing', 'confirm an export that lacks the policy\'s safety.maxMissingShare of the employees (else it is taken as broken)')
    .option('--no-wait', 'queue and return without running what is due now (a running seatflow worker takes it)')
    .option('--json', 'print the run as JSON');
  addCommonOptions(addRequestOptions(command)).action(async (hrExport: string, flags: SyncFlags) => {
    process.exitCode = await sync(hrExport, flags);
  });
}

async function sync(exportPath: string, flags: SyncFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const offboarding = openOffboarding(runtime, batch);
    const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
    await runtime.serviceClock.refresh();
    const run = await runSync({
      exportPath,
      policyPath: flags.policy,
      api,
      offboarding,
      config: runtime.config,
      target: batch.target,
      apply: flags.apply === true,
      acceptMissing: flags.acceptMissing === true,
      confirmGuardrails: async (check) => {
        await confirmOnTerminal(check, flags, flags.json === true);
        return true;
      },
      reportDir: syncReportDir(runtime),
      now: () => runtime.serviceClock.now(),
      // The approvals gate, as offboard and submit pass it (docs/governance.md#approvals).
      ...(flags.apply === true ? { approve: syncApproval(batch, cliActorOf(runtime, flags.by), flags.reason, { exportPath, policyPath: flags.policy, acceptMissing: flags.acceptMissing === true }) } : {}),
    });
    if (run.kind === 'same-export') {
      const line = `This export (${run.hrExport.path}, sha256 ${run.hrExport.sha256.slice(0, 12)}) was accepted ${run.previous.acceptedAt} (run ${run.previous.runId}): nothing to do.\n`;
      out.write(flags.json === true ? `${JSON.stringify({ target: runtime.targetLabel, sameExport: true, previous: run.previous })}\n` : `Target: ${runtime.targetLabel}\n${line}`);
      return 0;
    }
    if (flags.json === true) out.write(`${JSON.stringify({ target: runtime.targetLabel, ...syncSummary(run.plan, run.disposition, run.applied) }, null, 2)}\n`);
    else out.write(`Target: ${runtime.targetLabel}\n${formatSyncPlan(run.plan, runtime.config.rateLimit)}`);
    out.write(`Plan report: ${path.resolve(run.report.csv)} (run ${run.disposition.runId})\n`);
    if (flags.apply !== true) {
      out.write(`Nothing was changed${run.plan.missing.broken ? ' (and --apply would be held: a broken export)' : ''}, and the export is not accepted. Add --apply to queue these changes.\n`);
      return 0;
    }
    if (run.disposition.heldBecause !== undefined) {
      out.write(printed`Nothing was changed, and the export is not accepted: ${run.disposition.heldBecause.join('; ')}\n`);
      return 2;
    }
    if (run.disposition.awaitingApproval !== undefined) {
      const request = await batch.governance.gate.get(run.disposition.awaitingApproval);
      if (request === undefined) throw new Error(`change request ${run.disposition.awaitingApproval} disappeared from Redis`);
      out.write(`${awaitingApprovalText(request, run.disposition.requestCreated === true, runtime.sim !== undefined)}The export is not accepted until it is approved and queued.\n`);
      return EXIT_AWAITING_APPROVAL;
    }
    return afterApply(runtime, batch, run, flags);
  });
}

/** Says what was queued, runs what is due now here (unless --no-wait), then how each workflow stands. */
async function afterApply(runtime: CliRuntime, batch: BatchRuntime, run: Extract<SyncRun, { kind: 'planned' }>, flags: SyncFlags): Promise<number> {
  if (run.applied === undefined) throw new Error('an applied sync has no result');
  return appliedSyncToEnd(runtime, batch, run.applied, {
    wait: flags.wait !== false,
    json: flags.json === true,
    queuedNote: run.disposition.nothingToChange === true ? 'Nothing needed to change. The export is accepted.' : 'The export is accepted: the next sync compares with it.',
  });
}
