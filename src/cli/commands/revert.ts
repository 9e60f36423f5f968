import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { serviceRegionOf } from '../../core/config.js';
import { UsageError } from '../../core/seatflow-error.js';
import { fingerprintOfBatchPlan } from '../../governance/approvals/plan-fingerprint.js';
import { planRevert, revertBatchOptions } from '../../governance/revert/plan-revert.js';
import { formatPlan } from '../../plan/format-plan.js';
import { RedisUnavailableError } from '../../queue/redis/redis-unavailable-error.js';
import { batchIdOf, type SubmitResult } from '../../queue/submit-batch.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { countsLine } from '../batch-summary.js';
import { cliActorOf } from '../cli-actor.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { awaitingApprovalText, throughGate } from '../governance-runtime.js';
import { confirmOnTerminal } from '../manifest-options.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';
import { runBatchToEnd } from '../run-batch-to-end.js';
import { sayIfUnconfirmed } from '../say-if-unconfirmed.js';
import { writeJson } from '../write-text.js';

interface RevertFlags extends CommonFlags, RequestFlags {
  yes?: boolean;
  dryRun?: boolean;
  wait?: boolean;
  json?: boolean;
}

/**
 * `seatflow revert BATCH`: plans the inverse of what the batch did, from the state each row recorded before its change
 * (a downgrade back up, a deactivation reactivated within the window, an added user removed, an alternate address
 * removed, a column restored), refuses what cannot be undone with the reason, and runs it as a batch through the usual
 * guardrails and approvals. Exit codes as `run`; 4 when the revert waits for approval.
 */
export function defineRevertCommand(command: Command): void {
  command
    .argument('<batch>', 'the batch to undo')
    .option('--dry-run', 'print the plan of the revert and stop: nothing is queued')
    .option('--yes', 'confirm destructive changes above the guardrails without a prompt')
    .option('--no-wait', 'queue the revert and return (a running seatflow worker takes it)')
    .option('--json', 'print the plan of the revert, row by row, and what became of it as JSON; returns once queued (a running seatflow worker takes it)');
  addCommonOptions(addRequestOptions(command)).action(async (batchId: string, flags: RevertFlags) => {
    if (flags.sim === true) throw new UsageError('revert acts on a batch in Redis: --sim has no batch to undo', 'Run it against the target the batch ran on (SMARTSHEET_API_BASE).');
    process.exitCode = await revert(batchId, flags);
  });
}

async function revert(batchId: string, flags: RevertFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const { config } = runtime;
    const batch = await openBatchRuntime(runtime);
    const original = await batch.system.store.get(batchId);
    if (original !== undefined && original.target !== batch.target) {
      throw new UsageError(`batch ${batchId} ran on ${original.target}, not ${batch.target}`, 'Set SMARTSHEET_API_BASE to its target: a revert is planned against the service the batch changed.');
    }
    const actor = cliActorOf(runtime, flags.by);
    const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
    const revertPlan = await planRevert({
      batchId,
      store: batch.system.store,
      registry: createJobRegistry(),
      api,
      guardrails: config.guardrails,
      reactivationWindowDays: config.offboarding.reactivationWindowDays,
      // On the service's clock: the inverse seat rows keep the seats read here while that reading stands.
      service: { region: serviceRegionOf(config), externalSources: config.externalSources, readAtMs: runtime.serviceClock.now() },
    });
    const { plan } = revertPlan;
    const json = flags.json === true;
    // With --json the plan is data: the rows the revert promises, and what became of them, in one document.
    const printJson = (outcome: Record<string, unknown>) => writeJson(out, { target: runtime.targetLabel, revertOf: batchId, ...outcome, ...plan, guardrails: revertPlan.guardrails });
    if (!json) {
      out.write(`Target: ${runtime.targetLabel}\nRevert of batch ${batchId} (${revertPlan.batch.source}; ${countsLine(revertPlan.batch)}):\n`);
      out.write(`  ${revertPlan.changed} rows changed something; ${revertPlan.unchanged} changed nothing and need no undo.\n`);
      out.write(formatPlan(plan, { width: process.stdout.isTTY === true ? process.stdout.columns : undefined, rate: runtime.config.rateLimit }));
    }
    if (flags.dryRun === true) {
      if (json) await printJson({ status: 'dry-run' });
      else out.write('Dry run: nothing was queued.\n');
      return 0;
    }
    if (plan.summary.change === 0) {
      if (json) await printJson({ status: 'nothing-to-undo' });
      else out.write('Nothing to undo: no row of the revert would change anything.\n');
      return plan.summary.refused > 0 ? 1 : 0;
    }
    await confirmOnTerminal(revertPlan.guardrails, flags, json);
    const options = revertBatchOptions(batchId);
    const revertId = batchIdOf(plan.source.sha256, batch.target, options);
    const gated = await sayIfUnconfirmed(
      () => throughGate<SubmitResult>(
        batch,
        {
          kind: 'revert',
          id: revertId,
          subject: plan.source.path,
          target: batch.target,
          sim: false,
          plan: fingerprintOfBatchPlan(plan),
          guardrails: revertPlan.guardrails.reasons,
          input: { batchId },
          requestedBy: actor,
          reason: flags.reason,
        },
        async () => {
          const submitted = await batch.system.submit(plan, { options });
          return { value: submitted, queued: { id: submitted.batch.id, created: submitted.created } };
        },
      ),
      // Refused as not acknowledged, or Redis lost under the submission: it may still be kept and run as shown.
      RedisUnavailableError,
      async () => {
        if (json) await printJson({ status: 'not-acknowledged', batchId: revertId });
      },
    );
    if (gated.status === 'awaiting-approval') {
      if (json) await printJson({ status: 'awaiting-approval', batchId: gated.request.id, created: gated.created, approval: gated.request });
      else out.write(awaitingApprovalText(gated.request, gated.created, false));
      return EXIT_AWAITING_APPROVAL;
    }
    if (json) {
      await printJson({ status: 'queued', batchId: gated.value.batch.id, created: gated.value.created, jobsAdded: gated.value.jobsAdded });
      return 0;
    }
    if (flags.wait === false) {
      out.write(`Revert batch ${gated.value.batch.id} queued: ${gated.value.jobsAdded} rows. Process it with: seatflow worker\n`);
      return 0;
    }
    return runBatchToEnd(runtime, batch, gated.value);
  });
}

