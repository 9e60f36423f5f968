import { Readable } from 'node:stream';
import { parse, type CsvError, type Parser } from 'csv-parse';
import { countNewlines } from './decode-utf8.js';
import { ManifestFileError } from './manifest-file-error.js';

/** One record of a CSV file: its cells (trimmed) and the 1-based source line it starts on. */
export interface CsvLine {
  cells: string[];
  line: number;
}

export interface CsvTable {
  /** `,`, `;` or tab, detected on the first line. */
  delimiter: string;
  /** The records in order; blank lines are skipped. Throws ManifestFileError for CSV that cannot be read. */
  lines: AsyncGenerator<CsvLine>;
}

export interface CsvTableOptions {
  /** Longest record accepted, in characters; longer ones are nearly always an unbalanced quote. Default 64 KiB. */
  maxRecordChars?: number;
  /** What a file of this kind starts with, for the message about an empty file. */
  emptyHint: string;
}

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * CSV as every input reads it (manifests, leavers files, source-of-truth files), with csv-parse, streaming: a BOM,
 * CRLF or LF, quoted cells with newlines, `,` `;` or tab detected on the header line, cells trimmed, and each record's
 * source line kept exactly for messages. What the columns mean is the caller's (columns/column-vocabulary.ts).
 */
export async function openCsvTable(text: AsyncIterable<string>, options: CsvTableOptions): Promise<CsvTable> {
  const iterator = text[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (first.done !== true && first.value.replace(/^\uFEFF/, '').trim() === '') first = await iterator.next();
  if (first.done === true) throw new ManifestFileError('the file is empty', 0, options.emptyHint);
  const delimiter = detectDelimiter(first.value);
  return { delimiter, lines: linesOf(prepend(first.value, iterator), delimiter, options.maxRecordChars ?? 65_536) };
}

async function* linesOf(text: AsyncIterable<string>, delimiter: string, maxRecordChars: number): AsyncGenerator<CsvLine> {
  const parser = parse({
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
    max_record_size: maxRecordChars,
  });
  const input = Readable.from(text, { objectMode: false });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let line = 1;
  try {
    for await (const cells of recordsOf(parser)) {
      const start = line;
      line += 1 + cells.reduce((sum, cell) => sum + countNewlines(cell), 0);
      if (cells.every((cell) => cell === '')) continue;
      yield { cells, line: start };
    }
  } catch (error) {
    if (error instanceof ManifestFileError) throw error;
    throw csvFileError(error as CsvError, line, maxRecordChars);
  } finally {
    input.destroy();
  }
}

/** The delimiter as messages show it. */
export function printable(delimiter: string): string {
  return delimiter === '\t' ? '\\t' : delimiter;
}

/** Another delimiter the header line contains, when the one detected found no known column: a likely mix-up. */
export function otherDelimiterIn(cells: readonly string[], delimiter: string): string | undefined {
  return DELIMITERS.find((d) => d !== delimiter && cells.join('').includes(d));
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
