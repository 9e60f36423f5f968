import { z } from 'zod';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import type { Config } from '../../core/config.js';
import { ACTION_NAMES } from '../../manifest/action.js';
import { MANIFEST_FORMATS } from '../../manifest/manifest-format.js';
import { planManifest, type PlanManifestOptions } from '../../plan/plan-manifest.js';
import type { BatchPlan } from '../../plan/planned-row.js';
import type { BatchSystem } from '../../queue/batch-system.js';
import type { ChangeKindHandler, QueuedChange } from '../approvals/change-kind.js';
import { fingerprintOfBatchPlan } from '../approvals/plan-fingerprint.js';

/** What a manifest batch is planned from, kept with its request: the manifest's bytes and the plan's options. */
export const batchInputSchema = z.object({
  /** The manifest's path (files its rows name are found from its folder), or the name an uploaded one goes by. */
  path: z.string(),
  /** The name the plan shows, when not the path (`http:manifest.csv`). */
  shownAs: z.string().optional(),
  contentBase64: z.string(),
  format: z.enum(MANIFEST_FORMATS).optional(),
  defaultAction: z.enum(ACTION_NAMES).optional(),
  skipInvalid: z.boolean(),
  files: z.union([z.object({ dir: z.string() }), z.object({ refuse: z.string() })]).optional(),
  ignoreColumns: z.array(z.string()).optional(),
  refusalHint: z.string().optional(),
  /** The options that are part of the batch's id (`--action`, `--again`, …), as the submit path gave them. */
  options: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
export type BatchInput = z.infer<typeof batchInputSchema>;

/** What planning a manifest needs besides the input: the service and the configuration, from the composition root. */
export interface ManifestPlanning {
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  service?: PlanManifestOptions['service'];
  viewerSunset?: string;
}

/** The input as the gate keeps it (JSON-safe: the bytes as base64, absent options dropped). */
export function batchInputOf(input: Omit<BatchInput, 'contentBase64' | 'options'> & { content: Buffer; options: Record<string, string | boolean | undefined> }): BatchInput {
  const { content, options, ...rest } = input;
  const kept = Object.fromEntries(Object.entries(options).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined));
  return batchInputSchema.parse({ ...JSON.parse(JSON.stringify(rest)), contentBase64: content.toString('base64'), options: kept });
}

/** Plans a manifest from its kept input, exactly as the submit path did. */
export async function planBatchInput(input: BatchInput, planning: ManifestPlanning): Promise<BatchPlan> {
  const planned = await planManifest({
    path: input.path,
    content: Buffer.from(input.contentBase64, 'base64'),
    api: planning.api,
    guardrails: planning.guardrails,
    skipInvalid: input.skipInvalid,
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.defaultAction === undefined ? {} : { defaultAction: input.defaultAction }),
    ...(input.files === undefined ? {} : { files: input.files }),
    ...(input.ignoreColumns === undefined ? {} : { ignoreColumns: input.ignoreColumns }),
    ...(input.refusalHint === undefined ? {} : { refusalHint: input.refusalHint }),
    ...(planning.service === undefined ? {} : { service: planning.service }),
    ...(planning.viewerSunset === undefined ? {} : { viewerSunset: planning.viewerSunset }),
  });
  return input.shownAs === undefined ? planned.plan : { ...planned.plan, source: { ...planned.plan.source, path: input.shownAs } };
}

/** The batch a plan becomes: `seatflow submit`'s queue step. */
export async function queueBatchPlan(system: Pick<BatchSystem, 'submit'>, plan: BatchPlan, options: BatchInput['options']): Promise<QueuedChange> {
  const result = await system.submit(plan, { options });
  return { id: result.batch.id, created: result.created };
}

/** A manifest batch (`seatflow run`/`submit`, POST /v1/batches, the dashboard's plan page). */
export function createBatchKind(planning: ManifestPlanning, system: Pick<BatchSystem, 'submit'>): ChangeKindHandler {
  return {
    kind: 'batch',
    async replan(raw) {
      const input = batchInputSchema.parse(raw);
      const plan = await planBatchInput(input, planning);
      return { plan: fingerprintOfBatchPlan(plan), queue: () => queueBatchPlan(system, plan, input.options) };
    },
  };
}
