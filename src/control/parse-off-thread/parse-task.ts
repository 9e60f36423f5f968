import { UsageError } from '../../core/seatflow-error.js';
import { loadManifest, type LoadedManifest, type LoadManifestOptions } from '../../manifest/load-manifest.js';
import { ManifestFileError } from '../../manifest/manifest-file-error.js';
import type { ManifestRow, RowProblem } from '../../manifest/manifest-row.js';
import { RowStore, type StoredRows } from '../../manifest/row-store.js';
import { ManifestRefusedError } from '../../plan/manifest-refused-error.js';
import { readLeavers, type LeaversFile, type ReadLeaversOptions } from '../../workflow/read-leavers.js';
import { manifestTooLarge } from '../control-error.js';

/**
 * The parsing a plan over HTTP needs, as data that can cross to a worker thread: a manifest (parsed and validated,
 * rows kept) or a leavers file, with the control API's limit on rows (`control.maxPlanRows`).
 */
export type ParseTask =
  | { kind: 'manifest'; options: Omit<LoadManifestOptions, 'tooManyRows'> & { content: Buffer }; maxPlanRows: number }
  | { kind: 'leavers'; options: ReadLeaversOptions & { content: Buffer }; maxPlanRows: number };

export type ParseResult<T extends ParseTask> = T extends { kind: 'manifest' } ? LoadedManifest : LeaversFile;

/** A result as it crosses back from the thread: a manifest's rows as plain data (a class does not survive cloning). */
export type ParseAnswer = { kind: 'manifest'; manifest: Omit<LoadedManifest, 'rows'>; rows: StoredRows } | { kind: 'leavers'; file: LeaversFile };

export function answerOf(result: LoadedManifest | LeaversFile): ParseAnswer {
  if (!('rows' in result)) return { kind: 'leavers', file: result };
  const { rows, ...manifest } = result;
  return { kind: 'manifest', manifest, rows: (rows instanceof RowStore ? rows : RowStore.of(rows)).toStored() };
}

export function resultOf(answer: ParseAnswer): LoadedManifest | LeaversFile {
  return answer.kind === 'leavers' ? answer.file : { ...answer.manifest, rows: RowStore.fromStored<ManifestRow>(answer.rows) };
}

/** An error as it crosses back from the thread (class instances do not survive structured cloning). */
export type ParseFailure =
  | { kind: 'too-many-rows'; maxRows: number; what: 'manifest' | 'leavers file' }
  | { kind: 'file'; message: string; line: number; hint?: string | undefined }
  | { kind: 'refused'; message: string; problems: readonly RowProblem[]; hint?: string | undefined }
  | { kind: 'usage'; message: string; hint?: string | undefined }
  | { kind: 'other'; message: string };

/** Limits on rows, past which the parse stops: the manifest stream stops reading at the first row too many. */
export async function runParseTask(task: ParseTask): Promise<LoadedManifest | LeaversFile> {
  if (task.kind === 'manifest') {
    const guardrail = task.options.maxRows ?? Number.POSITIVE_INFINITY;
    if (task.maxPlanRows >= guardrail) return loadManifest(task.options);
    return loadManifest({ ...task.options, maxRows: task.maxPlanRows, tooManyRows: () => new TooManyRowsError(task.maxPlanRows) });
  }
  const file = await readLeavers(task.options);
  // A leavers file is read whole (its parser is not a stream); it is within the body limit, and off the event loop.
  if (file.leavers.length > task.maxPlanRows) throw new TooManyRowsError(task.maxPlanRows, 'leavers file');
  return file;
}

class TooManyRowsError extends Error {
  constructor(
    readonly maxRows: number,
    readonly what: 'manifest' | 'leavers file' = 'manifest',
  ) {
    super(`more than ${maxRows} rows`);
  }
}

export function describeFailure(error: unknown): ParseFailure {
  if (error instanceof TooManyRowsError) return { kind: 'too-many-rows', maxRows: error.maxRows, what: error.what };
  if (error instanceof ManifestFileError) return { kind: 'file', message: error.message, line: error.line, hint: error.hint };
  if (error instanceof ManifestRefusedError) return { kind: 'refused', message: error.message, problems: error.problems, hint: error.hint };
  if (error instanceof UsageError) return { kind: 'usage', message: error.message, hint: error.hint };
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

/** The error the caller would have met parsing on its own thread (the 413 of the row limit included). */
export function reviveFailure(failure: ParseFailure): Error {
  switch (failure.kind) {
    case 'too-many-rows':
      return manifestTooLarge(failure.maxRows, failure.what);
    case 'file':
      return new ManifestFileError(failure.message, failure.line, failure.hint);
    case 'refused': {
      const error = new ManifestRefusedError(failure.problems, 0, failure.hint);
      // The message counted the invalid rows where it was made; keep it word for word.
      error.message = failure.message;
      return error;
    }
    case 'usage':
      return new UsageError(failure.message, failure.hint);
    case 'other':
      return new Error(failure.message);
  }
}
