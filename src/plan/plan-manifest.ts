import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import type { ActionName } from '../manifest/action.js';
import type { FilesPolicy } from '../manifest/check-row-files.js';
import { ManifestFileError } from '../manifest/manifest-file-error.js';
import type { ManifestFormat } from '../manifest/manifest-format.js';
import { loadManifest, type LoadedManifest, type LoadManifestOptions } from '../manifest/load-manifest.js';
import { checkGuardrails, type GuardrailCheck } from './guardrails.js';
import { ManifestRefusedError } from './manifest-refused-error.js';
import type { BatchPlan } from './planned-row.js';
import { preflight } from './preflight.js';
import { isPastViewerSunset, VIEWER_SUNSET_AT } from '../contract/index.js';
import type { ServiceFacts } from './service-constraints.js';

export interface PlanManifestOptions {
  /** The manifest file; with `content`, only its name (relative paths in rows resolve against its folder). */
  path: string;
  /** The manifest's bytes when they do not come from `path`, e.g. a request body of the control API. */
  content?: Buffer;
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  defaultAction?: ActionName;
  format?: ManifestFormat;
  /** Go on with the valid rows; invalid ones get verdict 'invalid'. Default false: any invalid row refuses the file. */
  skipInvalid?: boolean;
  /**
   * Where the files rows upload (image, file) must be: a folder (`--files DIR`), or refused with a reason (manifests
   * that arrive over HTTP). Default: the manifest's folder.
   */
  files?: FilesPolicy;
  /** What to do about invalid rows, printed under a refusal. */
  refusalHint?: string;
  /** config `api.viewerSunset`: when the service retired VIEWER (the plan says which name a seat row is sent under). */
  viewerSunset?: string;
  /** The target's region and the users external sources manage (config `api.region`, `externalSources`). */
  service?: ServiceFacts;
  /** `--ignore-column`: CSV columns that mean nothing here. */
  ignoreColumns?: readonly string[];
  /** How the manifest is read; default `loadManifest` here (the control API reads large ones on a worker thread). */
  load?: (options: LoadManifestOptions) => Promise<LoadedManifest>;
  /** Told the rows read so far while the manifest is read (see LoadManifestOptions.onRowsRead). */
  onRowsRead?: (rows: number) => void;
  /** Now on the service's clock, before the pre-flight reads (PreflightOptions.readAtMs). */
  readAtMs?: number;
}

export interface PlannedManifest {
  /** The manifest as read, its `rows` left empty: the plan's rows carry them. */
  manifest: LoadedManifest;
  plan: BatchPlan;
  guardrails: GuardrailCheck;
}

/**
 * Manifest file → checked plan: read and validate every row, refuse the file when a row is invalid (unless
 * skipInvalid), pre-flight against live state, count destructive changes against the guardrails. Changes nothing.
 * Shared by `seatflow plan`, `seatflow run` and the control API.
 */
export async function planManifest(options: PlanManifestOptions): Promise<PlannedManifest> {
  let manifest: LoadedManifest;
  try {
    manifest = await (options.load ?? loadManifest)({
      path: options.path,
      ...(options.content === undefined ? {} : { content: options.content }),
      maxRows: options.guardrails.maxRows,
      protectedAccounts: options.guardrails.protectedAccounts,
      ...(options.defaultAction === undefined ? {} : { defaultAction: options.defaultAction }),
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.files === undefined ? {} : { files: options.files }),
      ...(options.ignoreColumns === undefined ? {} : { ignoreColumns: options.ignoreColumns }),
      ...(options.onRowsRead === undefined ? {} : { onRowsRead: options.onRowsRead }),
    });
  } catch (error) {
    if (error instanceof ManifestFileError) throw new ManifestRefusedError([{ row: 0, line: error.line, message: error.message }], 0, error.hint);
    throw error;
  }
  if (manifest.invalid.length > 0 && options.skipInvalid !== true) {
    throw new ManifestRefusedError(manifest.invalid.flatMap((row) => row.problems), manifest.invalid.length, options.refusalHint);
  }
  const sunsetAt = options.viewerSunset === undefined ? VIEWER_SUNSET_AT : Date.parse(options.viewerSunset);
  const plan = await preflight(manifest, {
    api: options.api,
    protectedAccounts: options.guardrails.protectedAccounts,
    // The same wall-clock decision the client makes when it sends the row (src/client/seat-naming.ts).
    pastViewerSunset: isPastViewerSunset(Date.now(), sunsetAt),
    ...options.service,
    ...(options.readAtMs === undefined ? {} : { readAtMs: options.readAtMs }),
  });
  // The plan holds every row now (with its action): the manifest's own copy is let go.
  return { manifest: { ...manifest, rows: [] }, plan, guardrails: checkGuardrails(plan, options.guardrails) };
}
