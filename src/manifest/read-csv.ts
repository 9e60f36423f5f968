import { Readable } from 'node:stream';
import { parse, type CsvError, type Parser } from 'csv-parse';
import { emailSchema } from './action.js';
import { countNewlines } from './decode-utf8.js';
import { canonicalField } from './field-names.js';
import { ManifestFileError } from './manifest-file-error.js';
import type { RawRecord, ReaderNotes } from './raw-record.js';

export interface ReadCsvOptions {
  /** Whether `--action` names the action, so the file needs no action column. */
  hasDefaultAction: boolean;
  /** Longest row accepted, in characters; longer rows are nearly always an unbalanced quote. Default 64 KiB. */
  maxRecordChars?: number;
}

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * Reads CSV text into raw records with csv-parse, streaming: BOM, CRLF or LF, quoted fields with newlines, `,` `;`
 * or tab (detected on the header line), header cells in any spelling (see field-names.ts), values trimmed. With
 * `--action`, a file whose first line is one e-mail is a header-less list of e-mails (the common HR export).
 */
export async function* readCsv(text: AsyncIterable<string>, notes: ReaderNotes, options: ReadCsvOptions): AsyncGenerator<RawRecord> {
  const iterator = text[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true || first.value.replace(/^\uFEFF/, '').trim() === '') {
    const more = first.done === true ? undefined : await iterator.next();
    if (more === undefined || more.done === true) throw new ManifestFileError('the file is empty', 0, 'A CSV manifest starts with a header row, e.g. "email,action".');
    return yield* readCsv(prepend(more.value, iterator), notes, options);
  }
  const delimiter = detectDelimiter(first.value);
  const maxRecordChars = options.maxRecordChars ?? 65_536;
  const parser = parse({
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
    max_record_size: maxRecordChars,
  });
  const input = Readable.from(prepend(first.value, iterator), { objectMode: false });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);

  let line = 1;
  let header: (string | undefined)[] | undefined;
  let headerless = false;
  let row = 0;
  try {
    for await (const cells of recordsOf(parser)) {
      const start = line;
      line += 1 + cells.reduce((sum, cell) => sum + countNewlines(cell), 0);
      if (cells.every((cell) => cell === '')) continue;
      if (header === undefined) {
        headerless = options.hasDefaultAction && isLoneEmail(cells);
        if (!headerless) {
          header = readHeader(cells, start, delimiter, notes, options);
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
        yield { kind: 'unreadable', problem: { row, line: start, message } };
        continue;
      }
      const fields: Record<string, unknown> = {};
      for (let i = 0; i < header.length; i += 1) {
        const field = header[i];
        if (field !== undefined && cells[i] !== undefined) fields[field] = cells[i];
      }
      yield { kind: 'record', row, line: start, fields };
    }
  } catch (error) {
    if (error instanceof ManifestFileError) throw error;
    throw csvFileError(error as CsvError, line, maxRecordChars);
  } finally {
    input.destroy();
  }
  if (header === undefined) throw new ManifestFileError('the file is empty', 0, 'A CSV manifest starts with a header row, e.g. "email,action".');
}

/** A first line that is one valid e-mail (a single-column file may still end its lines with a delimiter). */
function isLoneEmail(cells: readonly string[]): boolean {
  return cells.length > 0 && emailSchema.safeParse(cells[0]).success && cells.slice(1).every((cell) => cell === '');
}

function readHeader(cells: string[], line: number, delimiter: string, notes: ReaderNotes, options: ReadCsvOptions): (string | undefined)[] {
  if (cells.some((cell) => /@|^\d{6,}$/.test(cell))) {
    throw new ManifestFileError(
      `line ${line} looks like data, not a header ("${cells.join(printable(delimiter))}")`,
      line,
      isLoneEmail(cells)
        ? 'A file that is only a list of e-mails needs --action ACTION; otherwise add a header row, e.g. "email,action".'
        : 'Add a header row naming the columns, e.g. "email,action" (or just "email" with --action).',
    );
  }
  const header = cells.map((cell) => canonicalField(cell));
  const seen = new Map<string, string>();
  cells.forEach((cell, i) => {
    const field = header[i];
    if (field === undefined) {
      notes.warnings.push(`column "${cell}" is not a manifest field and is ignored`);
      return;
    }
    const earlier = seen.get(field);
    if (earlier !== undefined) throw new ManifestFileError(`columns "${earlier}" and "${cell}" both mean ${field}`, line, 'Keep one of them.');
    seen.set(field, cell);
  });
  if (seen.size === 0) {
    const other = DELIMITERS.find((d) => d !== delimiter && cells.join('').includes(d));
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
  return header;
}

function csvFileError(error: CsvError, line: number, maxRecordChars: number): ManifestFileError {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ManifestFileError(`a quote opened on line ${line} or after it is never closed`, line, 'Close the quote, or double a quote inside a quoted value ("").');
    case 'CSV_MAX_RECORD_SIZE':
      return new ManifestFileError(
        `the row starting on line ${line} is longer than ${maxRecordChars.toLocaleString('en-US')} characters`,
        line,
        'This is usually a quote that is never closed, swallowing the lines after it.',
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return new ManifestFileError(`line ${line}: text follows a closing quote`, line, 'Quote the whole value, and double quotes inside it ("").');
    default:
      return new ManifestFileError(`line ${line}: the CSV cannot be read (${error.message})`, line);
  }
}

function detectDelimiter(head: string): string {
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  let best: string = ',';
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    let count = 0;
    let quoted = false;
    for (const char of firstLine) {
      if (char === '"') quoted = !quoted;
      else if (char === delimiter && !quoted) count += 1;
    }
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

function printable(delimiter: string): string {
  return delimiter === '\t' ? '\\t' : delimiter;
}

/**
 * The parser's records in order, then its error: unlike the stream's own async iterator, records parsed before an
 * error are not dropped, so the line of the error is known exactly.
 */
async function* recordsOf(parser: Parser): AsyncGenerator<string[]> {
  const queue: string[][] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  parser.on('data', (record: string[]) => {
    queue.push(record);
    if (queue.length >= 1024) parser.pause();
    notify();
  });
  parser.on('error', (error: Error) => {
    failure = error;
    notify();
  });
  parser.on('end', () => {
    ended = true;
    notify();
  });
  for (;;) {
    const record = queue.shift();
    if (record !== undefined) {
      if (queue.length === 0 && parser.isPaused()) parser.resume();
      yield record;
      continue;
    }
    if (failure !== undefined) throw failure;
    if (ended) return;
    if (parser.isPaused()) parser.resume();
    await new Promise<void>((resolve) => (wake = resolve));
  }
}

async function* prepend(head: string, rest: AsyncIterator<string>): AsyncGenerator<string> {
  yield head;
  for (;;) {
    const next = await rest.next();
    if (next.done === true) return;
    yield next.value;
  }
}
