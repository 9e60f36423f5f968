import path from 'node:path';
import { UsageError } from './seatflow-error.js';

/**
 * The one way every command says that a file it was given cannot be read: "<what> not found: <absolute path>"
 * (or "is a folder, not a file", "cannot be read (permission denied)"), with what to do. `what` names the file as the
 * person knows it: "manifest", "leavers file", "policy file", "config file".
 */
export function fileRefusal(what: string, file: string, error: unknown, hint?: string): UsageError {
  const where = path.resolve(file);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message =
    code === 'ENOENT' || code === 'ENOTDIR'
      ? `${what} not found: ${where}`
      : code === 'EISDIR'
        ? `${what} is a folder, not a file: ${where}`
        : code === 'EACCES' || code === 'EPERM'
          ? `${what} cannot be read (permission denied): ${where}`
          : `${what} cannot be read: ${where}: ${error instanceof Error ? error.message : String(error)}`;
  return new UsageError(message, hint ?? (path.isAbsolute(file) ? 'Check the path.' : `Check the path (relative to ${process.cwd()}).`));
}

/** An error with the code a missing file gets, for callers that find out with a check rather than a read. */
export function missingFileError(): NodeJS.ErrnoException {
  return Object.assign(new Error('no such file'), { code: 'ENOENT' });
}
