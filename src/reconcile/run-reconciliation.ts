import path from 'node:path';
import type { GuardrailCheck } from '../plan/guardrails.js';
import type { BatchSystem } from '../queue/batch-system.js';
import type { SubmitResult } from '../queue/submit-batch.js';
import { planReconciliation, type PlanReconciliationOptions, type ReconciliationPlan } from './plan-reconciliation.js';
import { writeReconciliationReport, type RunDisposition } from './reconciliation-report.js';
import { checkRunLimits, SCHEDULE_LIMITS, type RunLimits } from './run-limits.js';

export interface RunReconciliationOptions extends PlanReconciliationOptions {
  /** Whose run this is: a schedule's name, or `policy:<file>` for a manual run. */
  runKey: string;
  /** The schedule's tick, or the time of a manual run: with runKey, the identity of the batch. */
  runAt: Date;
  /** Submit the plan as a batch; without it the run only writes its plan report. */
  apply: boolean;
  system?: Pick<BatchSystem, 'submit'>;
  /**
   * Asked when the plan crosses config guardrails: resolves true to go on. A scheduled run has nobody to ask and
   * answers false (the run then changes nothing and says why); the CLI asks on the terminal or takes --yes.
   */
  confirmGuardrails: (check: GuardrailCheck) => Promise<boolean>;
  /** Folder of the run's plan report. */
  reportDir: string;
  /**
   * A schedule's own limits (`schedule add --max-changes N --max-share F`): a run over them changes nothing; a run
   * within them needs no confirmation of the guardrails (the schedule's owner gave it when adding the schedule).
   */
  scheduleLimits?: RunLimits;
  /**
   * The approvals gate between the plan and the queue (docs/governance.md): given the plan and how to submit it, it
   * submits now or leaves the run waiting for approval. Absent: submitted at once.
   */
  approve?: ReconciliationApproval;
}

/** How a run passes the approvals gate: its batch, or the change request it waits as. */
export type ReconciliationApproval = (run: { plan: ReconciliationPlan; runId: string; submit: () => Promise<SubmitResult> }) => Promise<{ submitted: SubmitResult } | { awaitingApproval: string }>;

/** The batch of a run: the plan, named after the policy and the run, with the run as its identity. */
export function submitReconciliationPlan(system: Pick<BatchSystem, 'submit'>, plan: ReconciliationPlan, runId: string): Promise<SubmitResult> {
  const labelled = { ...plan.plan, source: { ...plan.plan.source, path: `${plan.policy.path} (policy run ${runId})` } };
  return system.submit(labelled, { identity: `reconcile:${runId}` });
}

export interface ReconciliationRun {
  plan: ReconciliationPlan;
  disposition: RunDisposition;
  submitted?: SubmitResult;
  report: { csv: string; json: string };
}

/** The identity of a run: `weekly-seats@2026-11-23T05:00:00.000Z`. */
export function runIdOf(runKey: string, runAt: Date): string {
  return `${runKey}@${runAt.toISOString()}`;
}

/**
 * One reconciliation run: plan; with `apply` and within the policy's limits (and a schedule's) and the guardrails,
 * submit the plan as a batch through the usual queue (its id names the run, so the same tick twice finds one batch);
 * write the report. A plan with no seat to change makes no batch: a schedule firing every minute leaves nothing but
 * its report.
 */
export async function runReconciliation(options: RunReconciliationOptions): Promise<ReconciliationRun> {
  const plan = await planReconciliation(options);
  const runId = runIdOf(options.runKey, options.runAt);
  let disposition: RunDisposition = { runId, applied: false };
  let submitted: SubmitResult | undefined;
  if (options.apply) {
    const schedule = options.scheduleLimits === undefined ? undefined : checkRunLimits(plan.limits.changes, plan.usersRead, options.scheduleLimits, SCHEDULE_LIMITS);
    const held = [...plan.limits.reasons, ...(schedule?.reasons ?? [])];
    if (held.length === 0 && plan.guardrails.needsConfirmation && !(await options.confirmGuardrails(plan.guardrails))) {
      held.push(...plan.guardrails.reasons.map((reason) => `${reason} (not confirmed)`));
    }
    if (held.length > 0) disposition = { runId, applied: false, heldBecause: held };
    else if (plan.limits.changes === 0) disposition = { runId, applied: false, nothingToChange: true };
    else {
      const { system } = options;
      if (system === undefined) throw new Error('runReconciliation: apply needs the batch system');
      const submit = () => submitReconciliationPlan(system, plan, runId);
      const passed = options.approve === undefined ? { submitted: await submit() } : await options.approve({ plan, runId, submit });
      if ('awaitingApproval' in passed) disposition = { runId, applied: false, awaitingApproval: passed.awaitingApproval };
      else {
        submitted = passed.submitted;
        disposition = { runId, applied: true, batchId: submitted.batch.id, batchExisted: !submitted.created };
      }
    }
  }
  const report = await writeReconciliationReport(plan, disposition, path.join(options.reportDir, reportStem(options.runKey, options.runAt)));
  return { plan, disposition, ...(submitted === undefined ? {} : { submitted }), report };
}

/** `weekly-seats-20261123T050000Z` or `license-policy-20261123T050000Z`: safe as a file name, sorted by time. */
function reportStem(runKey: string, runAt: Date): string {
  // A manual run is keyed by its policy's path; its file name is enough to tell reports apart.
  const name = runKey.startsWith('policy:') ? path.basename(runKey, path.extname(runKey)) : runKey;
  const key = name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return `${key}-${runAt.toISOString().replace(/[-:]|\.\d+/g, '')}`;
}
