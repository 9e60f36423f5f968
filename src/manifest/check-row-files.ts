import { UPLOAD_LIMITS } from '../contract/upload-limits.js';
import type { Action } from './action.js';
import { checkLocalFile, type LocalFile } from './local-file.js';
import type { RowProblem } from './manifest-row.js';

/**
 * Where the files rows name may come from: a folder (the manifest's, or `--files DIR`), or nowhere, with the reason
 * (a manifest sent over HTTP has no folder of its own).
 */
export type FilesPolicy = { dir: string } | { refuse: string };

/** The image types the service takes for a profile picture. */
const PROFILE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

export interface RowFiles {
  upload?: LocalFile;
  problems: Omit<RowProblem, 'row' | 'line'>[];
}

/** Whether a row uploads a local file (so reading the manifest has a file to check). */
export function uploadsFile(action: Action): boolean {
  return action.action === 'set-profile-image' || (action.action === 'create-discussion' && action.file !== undefined);
}

/** Checks the file a row uploads, if any: inside the folder, a regular file, and for a profile image, an image. */
export async function checkRowFiles(action: Action, policy: FilesPolicy): Promise<RowFiles> {
  const named = action.action === 'set-profile-image' ? { field: 'image', written: action.image, limit: UPLOAD_LIMITS.profileImage }
    : action.action === 'create-discussion' && action.file !== undefined ? { field: 'file', written: action.file, limit: UPLOAD_LIMITS.attachment }
    : undefined;
  if (named === undefined) return { problems: [] };
  const { field, written } = named;
  if ('refuse' in policy) return { problems: [{ field, message: `"${written}": ${policy.refuse}` }] };
  const checked = await checkLocalFile(written, policy.dir, named.limit);
  if (!checked.ok) return { problems: [{ field, message: checked.message }] };
  const type = checked.file.detectedType;
  if (field === 'image' && (type === undefined || !PROFILE_IMAGE_TYPES.has(type))) {
    return { problems: [{ field, message: `"${written}" is not a PNG, JPEG or GIF image: its bytes are ${type ?? 'of no image type (text?)'}` }] };
  }
  return { upload: checked.file, problems: [] };
}
