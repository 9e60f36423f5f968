import { createHash } from 'node:crypto';
import { fingerprintOfBatchPlan } from '../../governance/approvals/plan-fingerprint.js';
import { batchInputOf } from '../../governance/kinds/batch-kind.js';
import type { Actor } from '../../governance/operators/actor.js';
import type { ActionName } from '../../manifest/action.js';
import type { ManifestFormat } from '../../manifest/manifest-format.js';
import type { BatchPlan, PlannedRow } from '../../plan/planned-row.js';
import type { BatchRecord } from '../../queue/batch-store.js';
import { batchIdOf, type SubmitResult } from '../../queue/submit-batch.js';
import { batchView, type BatchView } from './batch-view.js';
import { unlessUnreplicated } from '../unless-unreplicated.js';
import type { ControlDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { planWithinDeadline } from './plan-within-deadline.js';
import { requestManifestSettings } from './plan-request.js';
import { approvalView, type ApprovalView } from './approval-view.js';
import { queuedRowsOf } from './queued-rows.js';
import { requireTarget } from './require-target.js';
import { withRedis } from '../with-redis.js';

export interface SubmitManifestOptions {
  bytes: Buffer;
  format: ManifestFormat;
  name?: string | undefined;
  action?: ActionName | undefined;
  skipInvalid: boolean;
  /** `?ignoreColumn=`: CSV columns that mean nothing here (they change no row, so not the batch id). */
  ignoreColumns?: readonly string[] | undefined;
  /** The person (or script) confirmed a batch over the guardrails: the CLI's --yes. */
  confirm: boolean;
  /** Who asks (the authenticated operator); the control token's identity when absent. */
  actor?: Actor | undefined;
  /** `?reason=`: the ticket or reason, kept in the audit trail. */
  reason?: string | undefined;
}

/**
 * `plan`: the plan this submission made and queued (or holds for approval), row by row, as POST /v1/plans shows one:
 * what the caller was promised, which may differ from an earlier preview when live state changed in between. Absent
 * when nothing was planned (the batch, or its change request, existed already). `queuedRows`, for a batch that
 * existed already (or whose cut-off submission this one finished): the rows it was queued to change, each as planned
 * when queued (queued-rows.ts; absent above QUEUED_ROWS_SHOWN rows).
 */
export type SubmitManifestResult =
  | { batchId: string; created: boolean; existing: boolean; jobsAdded: number; batch: BatchView; plan?: BatchPlan; queuedRows?: PlannedRow[] }
  | { batchId: string; awaitingApproval: true; created: boolean; approval: ApprovalView; plan?: BatchPlan };

/**
 * `seatflow submit` for the API and the dashboard: the same manifest bytes and options give the same batch id as the
 * CLI, a known batch (or a change already waiting for approval) is found before spending a pre-flight on it, a batch
 * over the guardrails needs `confirm`, and a change the approvals policy holds waits for a second person.
 */
export async function submitManifest(deps: ControlDeps, options: SubmitManifestOptions): Promise<SubmitManifestResult> {
  const { system } = deps.batches;
  requireTarget(deps);
  const batchOptions = { action: options.action, skipInvalid: options.skipInvalid };
  const id = batchIdOf(createHash('sha256').update(options.bytes).digest('hex'), deps.target.id, batchOptions);
  const known = await withRedis(deps, () => system.store.get(id));
  const shownRows = async (batch: BatchRecord) => {
    const rows = await withRedis(deps, () => queuedRowsOf(system.store, batch));
    return rows === undefined ? {} : { queuedRows: rows };
  };
  if (known !== undefined && known.state !== 'submitting') {
    return { batchId: id, created: false, existing: true, jobsAdded: 0, batch: batchView(known), ...(await shownRows(known)) };
  }
  const governance = deps.governance;
  const waiting = governance === undefined ? undefined : await withRedis(deps, () => governance.gate.get(id));
  if (waiting !== undefined && (waiting.state === 'awaiting-approval' || waiting.state === 'approved')) {
    return { batchId: id, awaitingApproval: true, created: false, approval: approvalView(waiting, deps.rate) };
  }
  const { plan, guardrails } = await planWithinDeadline(
    { ...deps, api: deps.batches.api },
    {
      bytes: options.bytes,
      format: options.format,
      api: deps.batches.api,
      skipInvalid: options.skipInvalid,
      ...(options.action === undefined ? {} : { defaultAction: options.action }),
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.ignoreColumns === undefined ? {} : { ignoreColumns: options.ignoreColumns }),
    },
  );
  if (guardrails.needsConfirmation && !options.confirm) {
    throw new ControlError(409, CONTROL_ERROR_CODES.confirmationRequired, `refused: ${guardrails.reasons.join('; ')}`, {
      hint: 'Check the plan (POST /v1/plans), then send the same manifest again with ?confirm=true. Nothing was queued.',
      details: { guardrails, summary: plan.summary },
    });
  }
  const queue = () => unlessUnreplicated(() => withRedis(deps, () => system.submit(plan, { options: batchOptions }), { timeout: false }), () => ({ batchId: id, plan }));
  // Not created: another try (cut off) made the batch, and its rows may have been queued on that try's plan.
  const queued = async (result: SubmitResult): Promise<SubmitManifestResult> => ({
    batchId: result.batch.id,
    created: result.created,
    existing: !result.created,
    jobsAdded: result.jobsAdded,
    batch: batchView(result.batch),
    ...(result.created ? { plan } : await shownRows(result.batch)),
  });
  if (governance === undefined) return queued(await queue());

  const actor = options.actor ?? governance.operators.byToken(deps.token)!;
  const settings = requestManifestSettings(options);
  let submitted: SubmitResult | undefined;
  const gated = await withRedis(
    deps,
    () =>
      governance.gate.submit(
        {
          kind: 'batch',
          id,
          subject: plan.source.path,
          target: deps.target.id,
          sim: deps.target.sim,
          plan: fingerprintOfBatchPlan(plan),
          guardrails: guardrails.reasons,
          input: batchInputOf({
            ...settings,
            content: options.bytes,
            format: options.format,
            skipInvalid: options.skipInvalid,
            ...(options.action === undefined ? {} : { defaultAction: options.action }),
            ...(options.ignoreColumns === undefined ? {} : { ignoreColumns: [...options.ignoreColumns] }),
            options: batchOptions,
          }),
          requestedBy: actor,
          reason: options.reason,
        },
        async () => {
          submitted = await queue();
          return { id: submitted.batch.id, created: submitted.created };
        },
      ),
    { timeout: false },
  );
  if (gated.status === 'awaiting-approval') return { batchId: id, awaitingApproval: true, created: gated.created, approval: approvalView(gated.request, deps.rate), ...(gated.created ? { plan } : {}) };
  return queued(submitted ?? (await queue()));
}
