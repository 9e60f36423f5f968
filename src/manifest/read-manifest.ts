import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';
import type { ActionName } from './action.js';
import { checkRowFiles, uploadsFile, type FilesPolicy, type RowFiles } from './check-row-files.js';
import { decodeUtf8 } from './decode-utf8.js';
import { detectManifestFormat, type ManifestFormat } from './manifest-format.js';
import type { ManifestRow, RowProblem } from './manifest-row.js';
import type { RawRecord, ReaderNotes } from './raw-record.js';
import { readCsv } from './read-csv.js';
import { readJson } from './read-json.js';
import { readJsonl } from './read-jsonl.js';
import { validateRow } from './validate-row.js';

export interface ReadManifestOptions {
  path: string;
  /** By extension or content when absent. */
  format?: ManifestFormat;
  /** `--action`: the action of every row that names none (a file that is only a list of e-mails). */
  defaultAction?: ActionName;
  /** Bytes to read instead of the file at `path` (tests); `path` still names it and anchors relative paths. */
  content?: string | Buffer;
  /** Where the files rows upload must be (`image`, `file`). Default: the manifest's folder. */
  files?: FilesPolicy;
  /** `--ignore-column`: CSV columns that mean nothing here, never refused for what they hold. */
  ignoreColumns?: readonly string[];
}

/** One row as read and validated: a typed action, or everything wrong with it. */
export type ManifestEntry =
  | { kind: 'row'; row: ManifestRow }
  | { kind: 'invalid'; row: number; line: number; actionName: string; problems: RowProblem[]; rawEmail?: string };

export interface ManifestReader extends AsyncIterable<ManifestEntry> {
  readonly path: string;
  /** Known once iteration started. */
  format(): ManifestFormat;
  /** SHA-256 of the bytes read, hex; complete once iteration ended. */
  sha256(): string;
  readonly notes: ReaderNotes;
}

const NO_FILE: RowFiles = { problems: [] };

/**
 * Reads a manifest row by row without holding the file: bytes → UTF-8 text → raw records (CSV, JSON or JSON Lines)
 * → typed actions or row problems. Problems of the file as a whole are thrown as ManifestFileError.
 */
export function readManifest(options: ReadManifestOptions): ManifestReader {
  const file = path.resolve(options.path);
  const hash = createHash('sha256');
  const notes: ReaderNotes = { warnings: [] };
  let format: ManifestFormat | undefined = options.format;
  let digest: string | undefined;

  async function* entries(): AsyncGenerator<ManifestEntry> {
    const { content } = options;
    // Only the first 4 KiB decide the format: a request body of up to 100 MiB is neither decoded nor copied whole here.
    const head = content === undefined ? await readHead(file) : typeof content === 'string' ? content.slice(0, 4096) : content.subarray(0, 4096).toString('utf8');
    format ??= detectManifestFormat(file, head);
    const bytes = content === undefined ? createReadStream(file, { highWaterMark: 256 * 1024 }) : [typeof content === 'string' ? Buffer.from(content, 'utf8') : content];
    const text = decodeUtf8(bytes, (chunk) => hash.update(chunk));
    const records: AsyncGenerator<RawRecord> =
      format === 'csv' ? readCsv(text, notes, { hasDefaultAction: options.defaultAction !== undefined, ...(options.ignoreColumns === undefined ? {} : { ignoreColumns: options.ignoreColumns }) })
      : format === 'json' ? readJson(text, notes)
      : readJsonl(text);
    const context = { defaultAction: options.defaultAction, defaults: notes.defaults };
    const files = options.files ?? { dir: path.dirname(file) };
    for await (const record of records) {
      context.defaults = notes.defaults;
      if (record.kind === 'unreadable') {
        yield { kind: 'invalid', row: record.problem.row, line: record.problem.line, actionName: '', problems: [record.problem] };
        continue;
      }
      const result = validateRow(record.fields, context);
      // Only rows that upload a file wait for the disk: a million-row file of deactivations never awaits here.
      const checked = result.ok ? (uploadsFile(result.action) ? await checkRowFiles(result.action, files) : NO_FILE) : undefined;
      if (result.ok && checked!.problems.length === 0) {
        const upload = checked!.upload;
        yield { kind: 'row', row: { row: record.row, line: record.line, action: result.action, ...(upload === undefined ? {} : { upload }) } };
      } else {
        const actionName = result.ok ? result.action.action : result.actionName;
        const problems = (result.ok ? checked!.problems : result.problems).map((problem) => ({ row: record.row, line: record.line, ...problem }));
        const rawEmail = rawEmailOf(record.fields);
        yield { kind: 'invalid', row: record.row, line: record.line, actionName, problems, ...(rawEmail === undefined ? {} : { rawEmail }) };
      }
    }
    digest = hash.digest('hex');
  }

  return {
    path: file,
    notes,
    format: () => format ?? detectManifestFormat(file, ''),
    sha256: () => digest ?? '',
    [Symbol.asyncIterator]: () => entries(),
  };
}

/** The e-mail a row gives (flat or as `user.email`), as written: an invalid row is still reported by whom it names. */
function rawEmailOf(fields: Record<string, unknown>): string | undefined {
  const nested = typeof fields.user === 'object' && fields.user !== null ? (fields.user as Record<string, unknown>).email : undefined;
  const value = fields.email ?? nested;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

async function readHead(file: string): Promise<string> {
  let handle;
  try {
    if (!(await stat(file)).isFile()) {
      throw fileRefusal('manifest', file, Object.assign(new Error('not a file'), { code: 'EISDIR' }), 'Name the CSV, JSON or JSON Lines file itself, e.g. seatflow plan folder/leavers.csv.');
    }
    handle = await open(file, 'r');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw fileRefusal('manifest', file, error);
  }
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
