import { emailSchema } from './action.js';
import type { HeaderReading } from './columns/column-vocabulary.js';
import { MANIFEST_COLUMNS } from './columns/input-vocabularies.js';
import { openCsvTable, otherDelimiterIn, printable } from './csv-table.js';
import { ManifestFileError } from './manifest-file-error.js';
import type { RawRecord, ReaderNotes } from './raw-record.js';

export interface ReadCsvOptions {
  /** Whether `--action` names the action, so the file needs no action column. */
  hasDefaultAction: boolean;
  /** Longest row accepted, in characters; longer rows are nearly always an unbalanced quote. Default 64 KiB. */
  maxRecordChars?: number;
  /** `--ignore-column`: columns that mean nothing here, as their headers are written. */
  ignoreColumns?: readonly string[];
}

const EMPTY_HINT = 'A CSV manifest starts with a header row, e.g. "email,action".';

/**
 * Reads CSV text into raw records with csv-parse, streaming: BOM, CRLF or LF, quoted fields with newlines, `,` `;`
 * or tab (detected on the header line), header cells in any spelling with the header rules of every input
 * (columns/column-vocabulary.ts: a near miss of a field, or an ignored column holding dates or e-mails, refuses the
 * file), values trimmed. With `--action`, a file whose first line is one e-mail is a header-less list of e-mails.
 */
export async function* readCsv(text: AsyncIterable<string>, notes: ReaderNotes, options: ReadCsvOptions): AsyncGenerator<RawRecord> {
  const { delimiter, lines } = await openCsvTable(text, { emptyHint: EMPTY_HINT, ...(options.maxRecordChars === undefined ? {} : { maxRecordChars: options.maxRecordChars }) });
  let header: readonly (string | undefined)[] | undefined;
  let reading: HeaderReading<string> | undefined;
  let headerless = false;
  let row = 0;
  for await (const { cells, line } of lines) {
    if (header === undefined) {
      headerless = options.hasDefaultAction && isLoneEmail(cells);
      if (!headerless) {
        reading = readHeader(cells, line, delimiter, notes, options);
        header = reading.fields;
        continue;
      }
      // No header to skip: this line is row 1, read as the one column `email`.
      header = ['email'];
    }
    row += 1;
    if (cells.length > header.length && cells.slice(header.length).some((cell) => cell !== '')) {
      const message = headerless
        ? `this row has ${cells.length} cells, but the file has no header and is read as a list of e-mails (its first line is one e-mail); add a header row naming the columns`
        : `this row has ${cells.length} cells but the header has ${header.length}; quote values that contain "${printable(delimiter)}"`;
      yield { kind: 'unreadable', problem: { row, line, message } };
      continue;
    }
    // A date or an e-mail in a column nobody reads refuses the file: it may be a leave date or a transfer target.
    reading?.checkIgnored((index) => cells[index], line);
    const fields: Record<string, unknown> = {};
    for (let i = 0; i < header.length; i += 1) {
      const field = header[i];
      if (field !== undefined && cells[i] !== undefined) fields[field] = cells[i];
    }
    yield { kind: 'record', row, line, fields };
  }
  if (header === undefined) throw new ManifestFileError('the file is empty', 0, EMPTY_HINT);
}

/** A first line that is one valid e-mail (a single-column file may still end its lines with a delimiter). */
function isLoneEmail(cells: readonly string[]): boolean {
  return cells.length > 0 && emailSchema.safeParse(cells[0]).success && cells.slice(1).every((cell) => cell === '');
}

function readHeader(cells: string[], line: number, delimiter: string, notes: ReaderNotes, options: ReadCsvOptions): HeaderReading<string> {
  if (cells.some((cell) => /@|^\d{6,}$/.test(cell))) {
    throw new ManifestFileError(
      `line ${line} looks like data, not a header ("${cells.join(printable(delimiter))}")`,
      line,
      isLoneEmail(cells)
        ? 'A file that is only a list of e-mails needs --action ACTION; otherwise add a header row, e.g. "email,action".'
        : 'Add a header row naming the columns, e.g. "email,action" (or just "email" with --action).',
    );
  }
  const reading = MANIFEST_COLUMNS.readHeader(cells, line, { ignore: options.ignoreColumns ?? [] });
  for (const column of reading.ignored) notes.warnings.push(`column "${column}" is not a manifest field and is ignored`);
  const seen = new Set(reading.fields.filter((field) => field !== undefined));
  if (seen.size === 0) {
    const other = otherDelimiterIn(cells, delimiter);
    const hint = cells.length === 1 && /[|:]/.test(cells[0] ?? '')
      ? 'Separate columns with a comma, a semicolon or a tab.'
      : other === undefined ? 'Name the columns as the manifest fields, e.g. "email,action,transferTo".' : `Is the delimiter "${printable(other)}"?`;
    throw new ManifestFileError(`no column of the header (line ${line}) is a manifest field: "${cells.join(printable(delimiter))}"`, line, hint);
  }
  if (!seen.has('action') && !options.hasDefaultAction) {
    throw new ManifestFileError('the file has no action column', line, 'Add an "action" column, or pass --action ACTION for the whole file.');
  }
  if (!seen.has('email') && !seen.has('userId') && !seen.has('user') && !seen.has('sheetId') && !seen.has('webhookId')) {
    throw new ManifestFileError('the header names no email, userId, sheetId or webhookId column', line, 'Name whom each row is about.');
  }
  return reading;
}
