import { createHash } from 'node:crypto';
import type { ActionName } from '../manifest/action.js';
import type { ManifestFormat } from '../manifest/manifest-format.js';
import { batchIdOf } from '../queue/submit-batch.js';
import { batchView, type BatchView } from './batch-view.js';
import type { ControlDeps } from './control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';
import { planWithinDeadline } from './plan-within-deadline.js';
import { requireTarget } from './routes/plan-routes.js';
import { withRedis } from './with-redis.js';

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
}

export interface SubmitManifestResult {
  batchId: string;
  created: boolean;
  existing: boolean;
  jobsAdded: number;
  batch: BatchView;
}

/**
 * `seatflow submit` for the API and the dashboard: the same manifest bytes and options give the same batch id as the
 * CLI, a known batch is found before spending a pre-flight on it, and a batch over the guardrails needs `confirm`.
 */
export async function submitManifest(deps: ControlDeps, options: SubmitManifestOptions): Promise<SubmitManifestResult> {
  const { system } = deps.batches;
  requireTarget(deps);
  const batchOptions = { action: options.action, skipInvalid: options.skipInvalid };
  const id = batchIdOf(createHash('sha256').update(options.bytes).digest('hex'), deps.target.id, batchOptions);
  const known = await withRedis(deps, () => system.store.get(id));
  if (known !== undefined && known.state !== 'submitting') {
    return { batchId: id, created: false, existing: true, jobsAdded: 0, batch: batchView(known) };
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
  const result = await withRedis(deps, () => system.submit(plan, { options: batchOptions }), { timeout: false });
  return { batchId: result.batch.id, created: result.created, existing: !result.created, jobsAdded: result.jobsAdded, batch: batchView(result.batch) };
}
