import type { InvalidRow, LoadedManifest } from '../manifest/load-manifest.js';

/**
 * Turns rows that name a local file (`image` of set-profile-image, `file` of create-discussion) into invalid rows.
 * For manifests that arrive over HTTP: those paths would otherwise be read from the server's disk for the caller.
 */
export function refuseLocalFiles(manifest: LoadedManifest): LoadedManifest {
  const refused: InvalidRow[] = [];
  const rows = manifest.rows.filter(({ row, line, action }) => {
    const field = action.action === 'set-profile-image' ? 'image' : action.action === 'create-discussion' && action.file !== undefined ? 'file' : undefined;
    if (field === undefined) return true;
    refused.push({
      row,
      line,
      actionName: action.action,
      ...('user' in action && action.user.email !== undefined ? { rawEmail: action.user.email } : {}),
      problems: [{ row, line, field, message: `${field} names a file on the server's disk, which the control API does not read; run this manifest with the seatflow CLI` }],
    });
    return false;
  });
  if (refused.length === 0) return manifest;
  const invalid = [...manifest.invalid, ...refused].sort((a, b) => a.row - b.row);
  return { ...manifest, rows, invalid, validCount: manifest.rowCount - invalid.length };
}
