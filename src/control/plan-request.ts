import path from 'node:path';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import type { ActionName } from '../manifest/action.js';
import { loadManifest, type InvalidRow, type LoadedManifest } from '../manifest/load-manifest.js';
import { ManifestFileError } from '../manifest/manifest-file-error.js';
import type { ManifestFormat } from '../manifest/manifest-format.js';
import { checkGuardrails } from '../plan/guardrails.js';
import { ManifestRefusedError } from '../plan/manifest-refused-error.js';
import type { PlannedManifest } from '../plan/plan-manifest.js';
import { preflight } from '../plan/preflight.js';

export interface PlanRequestOptions {
  bytes: Buffer;
  format: ManifestFormat;
  /** A name for the manifest in plans and batch records (`?name=`); default `manifest.<format>`. */
  name?: string;
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  defaultAction?: ActionName;
  skipInvalid?: boolean;
}

/**
 * What `planManifest` does for a file, for a request body: read and validate every row, refuse the manifest when a
 * row is invalid (unless skipInvalid), pre-flight against live state, check the guardrails. Changes nothing.
 *
 * One difference: rows naming a local file (`image`, `file`) are refused, because over HTTP those paths would be
 * read from the server's disk on the caller's behalf.
 */
export async function planRequest(options: PlanRequestOptions): Promise<PlannedManifest> {
  const name = path.basename(options.name ?? `manifest.${options.format}`);
  let loaded: LoadedManifest;
  try {
    loaded = await loadManifest({
      // The path only names the manifest; the bytes are the body. Its folder anchors nothing: paths are refused below.
      path: path.join(path.sep, 'control-api', name),
      content: options.bytes,
      format: options.format,
      maxRows: options.guardrails.maxRows,
      protectedAccounts: options.guardrails.protectedAccounts,
      ...(options.defaultAction === undefined ? {} : { defaultAction: options.defaultAction }),
    });
  } catch (error) {
    if (error instanceof ManifestFileError) throw new ManifestRefusedError([{ row: 0, line: error.line, message: error.message }], 0, error.hint);
    throw error;
  }
  const manifest = refuseLocalFiles({ ...loaded, path: `http:${name}` });
  if (manifest.invalid.length > 0 && options.skipInvalid !== true) {
    throw new ManifestRefusedError(manifest.invalid.flatMap((row) => row.problems), manifest.invalid.length, 'Fix the rows above, or send again with ?skipInvalid=true to go on with the valid rows only.');
  }
  const plan = await preflight(manifest, { api: options.api, protectedAccounts: options.guardrails.protectedAccounts });
  return { manifest, plan: { ...plan, source: { ...plan.source, path: manifest.path } }, guardrails: checkGuardrails(plan, options.guardrails) };
}

function refuseLocalFiles(manifest: LoadedManifest): LoadedManifest {
  const refused: InvalidRow[] = [];
  const rows = manifest.rows.filter(({ row, line, action }) => {
    const field = action.action === 'set-profile-image' ? 'image' : action.action === 'create-discussion' && action.file !== undefined ? 'file' : undefined;
    if (field === undefined) return true;
    refused.push({
      row,
      line,
      actionName: action.action,
      problems: [{ row, line, field, message: `${field} names a file on the server's disk, which the control API does not read; run this manifest with the seatflow CLI` }],
    });
    return false;
  });
  if (refused.length === 0) return manifest;
  const invalid = [...manifest.invalid, ...refused].sort((a, b) => a.row - b.row);
  return { ...manifest, rows, invalid, validCount: manifest.rowCount - invalid.length };
}
