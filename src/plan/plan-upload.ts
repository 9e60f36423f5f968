import { MEGABYTE, UPLOAD_LIMITS } from '../contract/upload-limits.js';
import type { LocalFile } from '../manifest/local-file.js';
import type { Classification } from './planned-row.js';
import { RULES } from './planned-row.js';

/**
 * Adds the file a row uploads to its classification: the plan names it (path inside the folder, size, detected
 * type) and hands it to the job, and a file over the service's limit is refused now instead of failing when the row
 * runs (the service answers such an upload with an error).
 */
export function planUpload(actionName: string, classification: Classification, upload: LocalFile | undefined): Classification {
  if (upload === undefined) return classification;
  const target = { ...classification.target, upload };
  if (classification.verdict !== 'change') return { ...classification, target };
  const image = actionName === 'set-profile-image';
  const limit = image ? UPLOAD_LIMITS.profileImage : UPLOAD_LIMITS.attachment;
  if (upload.size > limit) {
    return {
      verdict: 'refused',
      rule: RULES.fileTooLarge,
      reason: `${upload.relative} is ${bytes(upload.size)}; ${image ? 'a profile image' : 'an attachment'} may be at most ${limit / MEGABYTE} MB (${bytes(limit)})`,
      target,
    };
  }
  const uploads = `uploads ${upload.relative} (${bytes(upload.size)}, ${upload.detectedType ?? 'type not told by its bytes'})`;
  return { ...classification, reason: classification.reason === undefined ? uploads : `${classification.reason}; ${uploads}`, target };
}

function bytes(count: number): string {
  return `${count.toLocaleString('en-US')} bytes`;
}
