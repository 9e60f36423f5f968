import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from '../src/client/api-error.js';
import type { UploadSource } from '../src/client/smartsheet-api.js';
import { sha256Of, type LocalFile } from '../src/manifest/local-file.js';

/**
 * The bytes of the file a row uploads, read again when the row runs and sent only if they are exactly the bytes the
 * plan checked: same place inside the folder with no symbolic link on the way, a regular file, same size and
 * SHA-256. A file moved, swapped for a link or edited since the plan fails the row (InvalidArgument, not retried)
 * and nothing is sent. The bytes are sent from memory, so what was checked is what goes out.
 */
export async function readCheckedUpload(operation: string, file: LocalFile | undefined): Promise<UploadSource> {
  if (file === undefined) {
    throw new InvalidArgumentError({ operation, message: 'the row has no checked file (plan the manifest with seatflow plan/run/submit)' });
  }
  const full = path.join(file.root, file.relative);
  const changed = (why: string) =>
    new InvalidArgumentError({ operation, message: `${file.relative} ${why} since the plan: nothing was uploaded; check the file, then plan and run again` });
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    throw changed('is gone');
  }
  if (real !== full) throw changed('is now reached through a symbolic link');
  let handle;
  try {
    handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw changed('cannot be opened as a plain file');
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw changed('is no longer a regular file');
    if (info.size !== file.size) throw changed(`changed size (${file.size} → ${info.size} bytes)`);
    const bytes = await handle.readFile();
    if (file.sha256 === '' || sha256Of(bytes) !== file.sha256) throw changed('changed content');
    return { data: bytes, fileName: path.basename(file.relative), ...(file.detectedType === undefined ? {} : { contentType: file.detectedType }) };
  } finally {
    await handle.close();
  }
}
