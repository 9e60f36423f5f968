import path from 'node:path';
import type { Command } from 'commander';
import { formatReconciliation } from '../../reconcile/format-reconciliation.js';
import { runSummary } from '../../reconcile/reconciliation-report.js';
import { runReconciliation } from '../../reconcile/run-reconciliation.js';
import { createBudgetedApi, openBatchRuntime } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { cliActorOf } from '../cli-actor.js';
import { reconciliationApproval, awaitingApprovalText } from '../governance-runtime.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';
import { runBatchToEnd } from '../run-batch-to-end.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { confirmOnTerminal } from '../manifest-options.js';
import { manualRunKey, reconcileReportDir } from '../reconcile-runtime.js';
import { printed } from '../../core/printable.js';

interface ReconcileFlags extends CommonFlags, RequestFlags {
  apply?: boolean;
  yes?: boolean;
  json?: boolean;
}

/**
 * `seatflow reconcile POLICY`: the plan of the difference between the policy's seats and live seats (changes
 * nothing); with --apply, the plan as a batch through the usual queue, run to the end here. Exit 0 done (or only
 * planned), 1 rows failed, 2 the policy, a limit or the guardrails refused the run.
 */
export function defineReconcileCommand(command: Command): void {
  command
    .argument('<policy>', 'policy file (JSON), see jobs/examples/license-policy.json')
    .option('--apply', 'submit the plan as a batch and run it to the end (without it nothing changes)')
    .option('--yes', 'confirm changes above the guardrails without a prompt')
    .option('--json', 'print the run as JSON (plan only; with --apply the summary follows)');
  addCommonOptions(addRequestOptions(command)).action(async (policy: string, flags: ReconcileFlags) => {
    process.exitCode = await reconcile(policy, flags);
  });
}

async function reconcile(policyPath: string, flags: ReconcileFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
    const runAt = new Date();
    const run = await runReconciliation({
      policyPath,
      api,
      guardrails: runtime.config.guardrails,
      // Ages (last login, seat) on the service's clock; the run is named by this machine's time.
      clock: runtime.serviceClock,
      runKey: manualRunKey(policyPath),
      runAt,
      apply: flags.apply === true,
      system: batch.system,
      confirmGuardrails: async (check) => {
        await confirmOnTerminal(check, flags, flags.json === true);
        return true;
      },
      reportDir: reconcileReportDir(runtime),
      ...(flags.apply === true ? { approve: reconciliationApproval(batch, cliActorOf(runtime, flags.by), flags.reason) } : {}),
    });
    if (flags.json === true) out.write(`${JSON.stringify({ target: runtime.targetLabel, ...runSummary(run.plan, run.disposition), changes: run.plan.changes, rows: run.plan.plan.rows }, null, 2)}\n`);
    else out.write(`Target: ${runtime.targetLabel}\n${formatReconciliation(run.plan, runtime.config.rateLimit)}`);
    out.write(`Plan report: ${path.resolve(run.report.csv)} (run ${run.disposition.runId})\n`);
    if (flags.apply !== true) {
      out.write('Nothing was changed. Add --apply to submit these changes as a batch.\n');
      return 0;
    }
    if (run.disposition.heldBecause !== undefined) {
      out.write(printed`Nothing was changed: ${run.disposition.heldBecause.join('; ')}\n`);
      return 2;
    }
    if (run.disposition.nothingToChange === true) {
      out.write('No seat needs to change: no batch was made.\n');
      return 0;
    }
    if (run.disposition.awaitingApproval !== undefined) {
      const request = await batch.governance.gate.get(run.disposition.awaitingApproval);
      if (request !== undefined) out.write(awaitingApprovalText(request, request.requestedAt >= runAt.toISOString(), runtime.sim !== undefined));
      return EXIT_AWAITING_APPROVAL;
    }
    if (run.submitted === undefined) throw new Error('an applied run has no batch');
    return runBatchToEnd(runtime, batch, run.submitted);
  });
}
