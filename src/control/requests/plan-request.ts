import path from 'node:path';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import type { Config } from '../../core/config.js';
import type { ActionName } from '../../manifest/action.js';
import type { ManifestFormat } from '../../manifest/manifest-format.js';
import { planManifest, type PlannedManifest } from '../../plan/plan-manifest.js';
import type { ServiceFacts } from '../../plan/service-constraints.js';
import type { ParseThread } from '../parse-off-thread/parse-thread.js';

export interface PlanRequestOptions {
  bytes: Buffer;
  format: ManifestFormat;
  /** A name for the manifest in plans and batch records (`?name=`); default `manifest.<format>`. */
  name?: string;
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  defaultAction?: ActionName;
  skipInvalid?: boolean;
  /** The target's region and externally managed users, as for `seatflow plan`. */
  service?: ServiceFacts;
  /** `?ignoreColumn=`: CSV columns that mean nothing here. */
  ignoreColumns?: readonly string[];
  /** Where the manifest is parsed (a large one on a worker thread), and how many rows a plan may have. */
  parse: ParseThread;
  maxPlanRows: number;
}

/** How a request body is named and read: what `planRequest` does, and what an approval re-plans it with. */
export function requestManifestSettings(options: Pick<PlanRequestOptions, 'name' | 'format'>) {
  const name = path.basename(options.name ?? `manifest.${options.format}`);
  return {
    // The path only names the manifest; the bytes are the body.
    path: path.join(path.sep, 'control-api', name),
    shownAs: name,
    files: { refuse: "names a file on the server's disk, which the control API does not read; run this manifest with the seatflow CLI" },
    refusalHint: 'Fix the rows above, or send again with ?skipInvalid=true to go on with the valid rows only.',
  };
}

/**
 * `planManifest` for a request body. Rows naming a local file (`image`, `file`) are refused, because over HTTP those
 * paths would be read from the server's disk on the caller's behalf. The manifest (and so the batch) is named after
 * the uploaded file: the dashboard's file name or the API's `?name=`, else `manifest.<format>`.
 */
export async function planRequest(options: PlanRequestOptions): Promise<PlannedManifest> {
  const { path: manifestPath, shownAs: name, files, refusalHint } = requestManifestSettings(options);
  const planned = await planManifest({
    path: manifestPath,
    content: options.bytes,
    format: options.format,
    api: options.api,
    guardrails: options.guardrails,
    files,
    load: (loadOptions) => options.parse.run({ kind: 'manifest', options: { ...loadOptions, content: options.bytes }, maxPlanRows: options.maxPlanRows }),
    refusalHint,
    ...(options.skipInvalid === undefined ? {} : { skipInvalid: options.skipInvalid }),
    ...(options.defaultAction === undefined ? {} : { defaultAction: options.defaultAction }),
    ...(options.service === undefined ? {} : { service: options.service }),
    ...(options.ignoreColumns === undefined ? {} : { ignoreColumns: options.ignoreColumns }),
  });
  return {
    ...planned,
    manifest: { ...planned.manifest, path: name },
    plan: { ...planned.plan, source: { ...planned.plan.source, path: name } },
  };
}
