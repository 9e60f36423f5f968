import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createJobRegistry } from '../../jobs/registry.js';
import { serviceRegionOf } from '../core/config.js';
import type { ApprovalRecord } from '../governance/approvals/approval-record.js';
import type { ChangeRequest, GateResult } from '../governance/approvals/approval-gate.js';
import { changeKinds, type ChangeKinds } from '../governance/approvals/change-kind.js';
import { batchInputOf, createBatchKind } from '../governance/kinds/batch-kind.js';
import { UsageError } from '../core/seatflow-error.js';
import type { GuardrailCheck } from '../plan/guardrails.js';
import type { BatchPlan } from '../plan/planned-row.js';
import type { SubmitResult } from '../queue/submit-batch.js';
import { cliActorOf } from './cli-actor.js';
import type { ManifestFlags } from './manifest-options.js';
import type { RequestFlags } from './request-options.js';
import { createOffboardingKind, fingerprintOfOffboarding, offboardingInputOf } from '../governance/kinds/offboarding-kind.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import type { OffboardingPlan } from '../workflow/plan-offboarding.js';
import { workflowIdOf, type SubmittedOffboarding } from '../workflow/submit-offboarding.js';
import { createReconciliationKind } from '../governance/kinds/reconciliation-kind.js';
import { createSyncKind, syncThroughGate, type SyncInput } from '../governance/kinds/sync-kind.js';
import type { AppliedSync } from '../sync/apply-sync.js';
import type { SyncApproval } from '../sync/run-sync.js';
import { createRevertKind } from '../governance/kinds/revert-kind.js';
import { createMigrationKind } from '../governance/kinds/migration-kind.js';
import { migrationPlanningOf } from './migration-planning.js';
import type { ReconciliationApproval } from '../reconcile/run-reconciliation.js';
import { fingerprintOfBatchPlan } from '../governance/approvals/plan-fingerprint.js';
import type { Actor } from '../governance/operators/actor.js';
import type { QueuedChange } from '../governance/approvals/change-kind.js';
import { batchIdOf } from '../queue/submit-batch.js';
import { createBudgetedApi, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { openOffboarding } from './offboarding-runtime.js';

/**
 * The kinds of change this command line can re-plan when it approves one: all of them, on its target. `onSyncApplied`
 * is told what an approved sync queued.
 */
export function changeKindsOf(runtime: CliRuntime, batch: BatchRuntime, hooks: { onSyncApplied?: (applied: AppliedSync) => void } = {}): ChangeKinds {
  const { config } = runtime;
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  const service = { region: serviceRegionOf(config), externalSources: config.externalSources };
  return changeKinds(
    createBatchKind({ api, guardrails: config.guardrails, service, ...(config.api.viewerSunset === undefined ? {} : { viewerSunset: config.api.viewerSunset }) }, batch.system),
    createOffboardingKind({ api, config, offboarding: openOffboarding(runtime, batch) }),
    createReconciliationKind({ api, guardrails: config.guardrails, system: batch.system }),
    createSyncKind({ api, offboarding: openOffboarding(runtime, batch), config, target: batch.target, now: () => runtime.serviceClock.now(), refreshClock: () => runtime.serviceClock.refresh(), ...(hooks.onSyncApplied === undefined ? {} : { onApplied: hooks.onSyncApplied }) }),
    createRevertKind(
      { store: batch.system.store, registry: createJobRegistry(), api, guardrails: config.guardrails, reactivationWindowDays: config.offboarding.reactivationWindowDays, service },
      batch.system,
    ),
    createMigrationKind(migrationPlanningOf(runtime, batch, openOffboarding(runtime, batch))),
  );
}

/** What a command prints when its change waits for approval, and how to go on. */
export function awaitingApprovalText(request: ApprovalRecord, created: boolean, sim: boolean): string {
  const lines = [
    created
      ? `${request.kind} ${request.id} waits for approval (requested by ${request.requestedBy.name}): ${request.why.join('; ')}.`
      : `${request.kind} ${request.id} was asked for before and ${request.state === 'approved' ? 'is being queued by its approver' : `still waits for approval (requested by ${request.requestedBy.name} at ${request.requestedAt})`}.`,
    `  plan ${request.planHash.slice(0, 16)}…: ${request.changes} change${request.changes === 1 ? '' : 's'} (${request.destructive} destructive). Nothing was changed.`,
    `  Another person approves it with: seatflow approve ${request.id}   (or rejects it: seatflow reject ${request.id} --reason "…")`,
  ];
  if (sim) lines.push('  SIMULATION: the embedded reference server ends with this process; approvals of a simulation need a lasting one (seatflow sim, then SMARTSHEET_API_BASE).');
  return `${lines.join('\n')}\n`;
}

/** A reconciliation run's way through the gate, for `reconcile --apply` and schedule runs. */
export function reconciliationApproval(batch: BatchRuntime, actor: Actor, reason: string | undefined): ReconciliationApproval {
  return async ({ plan, runId, submit }) => {
    const identity = `reconcile:${runId}`;
    let submitted: Awaited<ReturnType<typeof submit>> | undefined;
    const result = await batch.governance.gate.submit(
      {
        kind: 'reconciliation',
        id: batchIdOf(identity, batch.target),
        subject: `${plan.policy.path} (policy run ${runId})`,
        target: batch.target,
        sim: batch.target.startsWith('sim:'),
        plan: fingerprintOfBatchPlan(plan.plan),
        guardrails: plan.guardrails.reasons,
        markedBy: plan.policy.policy.requireApproval ? 'the policy asks for approval of every applied run (requireApproval)' : undefined,
        input: {
          policyPath: path.resolve(plan.policy.path),
          runKey: runId.slice(0, runId.lastIndexOf('@')),
          runAt: runId.slice(runId.lastIndexOf('@') + 1),
          ...(plan.onlyEmails === undefined ? {} : { emails: [...plan.onlyEmails] }),
        },
        requestedBy: actor,
        reason,
      },
      async () => {
        submitted = await submit();
        return { id: submitted.batch.id, created: submitted.created };
      },
    );
    if (result.status === 'awaiting-approval') return { awaitingApproval: result.request.id };
    return { submitted: submitted ?? (await submit()) };
  };
}

/**
 * A sync's way through the gate, for `sync --apply` and a sync schedule's runs: applied now, or waiting for approval
 * with the export's bytes kept (tonight's file is replaced tomorrow; the approver plans exactly this one).
 */
export function syncApproval(batch: BatchRuntime, actor: Actor, reason: string | undefined, run: Pick<SyncInput, 'exportPath' | 'policyPath' | 'acceptMissing'>): SyncApproval {
  return async ({ plan, apply }) => {
    const exportPath = path.resolve(run.exportPath);
    const [content, modifiedAt] = await Promise.all([readFile(exportPath), stat(exportPath).then((info) => info.mtimeMs)]);
    if (createHash('sha256').update(content).digest('hex') !== plan.export.sha256) {
      throw new UsageError(`${run.exportPath} changed while it was planned: nothing was queued`, 'Run the sync again.');
    }
    const input: SyncInput = { exportPath, contentBase64: content.toString('base64'), modifiedAt, policyPath: path.resolve(run.policyPath), acceptMissing: run.acceptMissing };
    return syncThroughGate(batch.governance.gate, plan, { target: batch.target, sim: batch.target.startsWith('sim:'), input, requestedBy: actor, reason }, apply);
  };
}

/** Runs a change through the gate, keeping what its own queue step returned (a batch's record, an offboarding). */
export async function throughGate<T>(batch: BatchRuntime, request: ChangeRequest, queue: () => Promise<{ value: T; queued: QueuedChange }>): Promise<{ status: 'queued'; value: T } | Extract<GateResult, { status: 'awaiting-approval' }>> {
  let value: T | undefined;
  let done = false;
  const result = await batch.governance.gate.submit(request, async () => {
    const out = await queue();
    value = out.value;
    done = true;
    return out.queued;
  });
  if (result.status === 'awaiting-approval') return result;
  if (!done) throw new Error(`the gate queued ${request.id} without its queue step`);
  return { status: 'queued', value: value as T };
}

export interface ManifestChange {
  manifestPath: string;
  plan: BatchPlan;
  guardrails: GuardrailCheck;
  flags: ManifestFlags & RequestFlags;
  /** The options that are part of the batch's id. */
  options: Record<string, string | boolean | undefined>;
}

/**
 * `run` and `submit` through the gate: the batch is queued now, or waits for approval with the manifest's bytes and
 * options kept so the approver's process plans exactly this file again.
 */
export async function gateManifestBatch(runtime: CliRuntime, batch: BatchRuntime, change: ManifestChange): Promise<{ status: 'queued'; value: SubmitResult } | Extract<GateResult, { status: 'awaiting-approval' }>> {
  const { plan, flags } = change;
  const content = await readFile(change.manifestPath);
  if (createHash('sha256').update(content).digest('hex') !== plan.source.sha256) {
    throw new UsageError(`${change.manifestPath} changed while it was planned: nothing was queued`, 'Run the command again.');
  }
  const input = batchInputOf({
    path: path.resolve(change.manifestPath),
    content,
    skipInvalid: flags.skipInvalid === true,
    ...(flags.format === undefined ? {} : { format: flags.format }),
    ...(flags.action === undefined ? {} : { defaultAction: flags.action }),
    ...(flags.files === undefined ? {} : { files: { dir: path.resolve(flags.files) } }),
    ...(flags.ignoreColumn === undefined ? {} : { ignoreColumns: flags.ignoreColumn }),
    options: change.options,
  });
  return throughGate<SubmitResult>(
    batch,
    {
      kind: 'batch',
      id: batchIdOf(plan.source.sha256, batch.target, change.options),
      subject: plan.source.path,
      target: batch.target,
      sim: runtime.sim !== undefined,
      plan: fingerprintOfBatchPlan(plan),
      guardrails: change.guardrails.reasons,
      input,
      requestedBy: cliActorOf(runtime, flags.by),
      reason: flags.reason,
    },
    async () => {
      const submitted = await batch.system.submit(plan, { options: change.options });
      return { value: submitted, queued: { id: submitted.batch.id, created: submitted.created } };
    },
  );
}

/** `offboard` through the gate: queued now, or waiting with the leavers file's bytes and the options kept. */
export async function gateOffboarding(
  runtime: CliRuntime,
  batch: BatchRuntime,
  offboarding: Pick<OffboardingSystem, 'submit'>,
  change: { file: string; plan: OffboardingPlan; flags: RequestFlags },
): Promise<{ status: 'queued'; value: SubmittedOffboarding } | Extract<GateResult, { status: 'awaiting-approval' }>> {
  const { plan } = change;
  const content = await readFile(change.file);
  if (createHash('sha256').update(content).digest('hex') !== plan.source.sha256) {
    throw new UsageError(`${change.file} changed while it was planned: nothing was queued`, 'Run the command again.');
  }
  return throughGate<SubmittedOffboarding>(
    batch,
    {
      kind: 'offboarding',
      id: workflowIdOf(plan, batch.target),
      subject: plan.source.path,
      target: batch.target,
      sim: runtime.sim !== undefined,
      plan: fingerprintOfOffboarding(plan),
      guardrails: plan.guardrails.reasons,
      input: offboardingInputOf(path.resolve(change.file), content, plan.options),
      requestedBy: cliActorOf(runtime, change.flags.by),
      reason: change.flags.reason,
    },
    async () => {
      const submitted = await offboarding.submit(plan);
      return { value: submitted, queued: { id: submitted.workflow.id, created: submitted.created } };
    },
  );
}

/** How long a command that ran a batch here waits at its end for the notifications it caused to go out. */
const NOTIFY_BEFORE_EXIT_MS = 10_000;

/**
 * For the commands that run a batch in this process (run, approve --wait, reconcile --apply, revert): notifications
 * are sent from here while it runs, and at the end for up to 10 s more; what is still retrying then stays queued for
 * `seatflow worker` (said on stderr). Nothing happens when no destination is configured.
 */
export function sendNotificationsHere(runtime: CliRuntime, batch: BatchRuntime): { finish(): Promise<void> } {
  if (runtime.config.governance.notifications.destinations.length === 0) return { finish: async () => undefined };
  const worker = batch.governance.startNotificationWorker();
  return {
    async finish() {
      const queue = batch.governance.notifier.queue();
      const deadline = Date.now() + NOTIFY_BEFORE_EXIT_MS;
      let left = 0;
      for (;;) {
        const counts = await queue.getJobCounts('wait', 'active', 'prioritized');
        left = Object.values(counts).reduce((sum, n) => sum + n, 0);
        if (left === 0 || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await worker.close(2000);
      const delayed = await queue.getJobCounts('delayed');
      const later = left + (delayed.delayed ?? 0);
      if (later > 0) process.stderr.write(`note: ${later} notification${later === 1 ? '' : 's'} still to send (a receiver did not answer yet): seatflow worker sends ${later === 1 ? 'it' : 'them'}\n`);
    },
  };
}
