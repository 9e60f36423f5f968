import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * A local file a row uploads (a profile image, a discussion attachment), as it was when the manifest was read. Plain
 * data: it travels in the plan and in the row's job, where the job checks the bytes again before sending them.
 */
export interface LocalFile {
  /** The folder files must stay in (the manifest's folder or `--files DIR`), symbolic links resolved. */
  root: string;
  /** The file's path inside `root`, with no symbolic link on the way. */
  relative: string;
  size: number;
  /** SHA-256 of the bytes, hex; '' when the file is larger than the check reads (the plan refuses it then). */
  sha256: string;
  /** The type the file's first bytes show (file-type); undefined when they show none (plain text, CSV…). */
  detectedType: string | undefined;
}

export type LocalFileCheck = { ok: true; file: LocalFile } | { ok: false; message: string };

/** Bytes file-type reads to tell a type. */
const HEAD_BYTES = 4100;

/**
 * Checks a path a manifest row gives, which is untrusted: it must be relative, stay inside `folder` (no `..`
 * escape, no symbolic link leading out) and name a regular file. Reads the file once to hash it and tell its type,
 * unless it is larger than `hashLimitBytes` (such a file will be refused by the plan, so reading it is wasted).
 */
export async function checkLocalFile(written: string, folder: string, hashLimitBytes: number): Promise<LocalFileCheck> {
  if (path.isAbsolute(written) || /^~[\\/]/.test(written)) {
    return { ok: false, message: `"${written}" is an absolute path: give a path inside the manifest's folder (or --files DIR), relative to it` };
  }
  let root: string;
  try {
    root = await realpath(folder);
  } catch (error) {
    return { ok: false, message: `the files folder ${folder} cannot be read (${codeOf(error)})` };
  }
  const joined = path.resolve(root, written);
  if (!isInside(root, joined)) return { ok: false, message: `"${written}" leads outside ${root} (.. is refused): keep files inside the folder` };
  let real: string;
  try {
    real = await realpath(joined);
  } catch (error) {
    return { ok: false, message: codeOf(error) === 'ENOENT' ? `file not found: "${written}" (in ${root})` : `"${written}" cannot be read (${codeOf(error)})` };
  }
  if (!isInside(root, real)) return { ok: false, message: `"${written}" is a symbolic link leading outside ${root}: refused` };
  return readFacts(written, root, real, hashLimitBytes);
}

async function readFacts(written: string, root: string, real: string, hashLimitBytes: number): Promise<LocalFileCheck> {
  let handle;
  try {
    // O_NOFOLLOW: if the file was swapped for a link since realpath, opening fails instead of following it.
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, message: `"${written}" cannot be read (${codeOf(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, message: `"${written}" is not a regular file (a folder, device or pipe): only regular files are uploaded` };
    // A hard link is a second name of a file that may live anywhere on the disk (/etc/shadow linked into the folder).
    if (info.nlink > 1) return { ok: false, message: `"${written}" has other hard links, so it may be a file from outside the folder: copy it in instead` };
    if (info.size === 0) return { ok: false, message: `"${written}" is empty` };
    const relative = path.relative(root, real);
    if (info.size > hashLimitBytes) {
      const head = await readHead(handle);
      return { ok: true, file: { root, relative, size: info.size, sha256: '', detectedType: await detectedTypeOf(head) } };
    }
    const bytes = await handle.readFile();
    const detectedType = await detectedTypeOf(bytes.subarray(0, HEAD_BYTES));
    return { ok: true, file: { root, relative, size: bytes.length, sha256: sha256Of(bytes), detectedType } };
  } finally {
    await handle.close();
  }
}

async function readHead(handle: Awaited<ReturnType<typeof open>>): Promise<Buffer> {
  const head = Buffer.alloc(HEAD_BYTES);
  const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
  return head.subarray(0, bytesRead);
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether `candidate` is `root` itself or below it (both absolute and normalised). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** The type a file's first bytes show. file-type is loaded on the first file a manifest names, not by every command. */
async function detectedTypeOf(head: Buffer): Promise<string | undefined> {
  const { fileTypeFromBuffer } = await import('file-type');
  return (await fileTypeFromBuffer(head))?.mime;
}
