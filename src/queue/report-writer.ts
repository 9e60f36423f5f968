import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { printable } from '../core/printable.js';
import { UsageError } from '../core/seatflow-error.js';
import type { RowOutcome } from './row-outcome.js';

export const REPORT_COLUMNS = [
  'row', 'line', 'action', 'email', 'userId', 'subject', 'outcome', 'category', 'status', 'errorCode', 'refId', 'rule', 'message',
  'attempts', 'crashedAttempts', 'startedAt', 'finishedAt', 'confirmed', 'detail', 'batchId', 'sim',
] as const;

export type ReportFormat = 'csv' | 'jsonl';

/** The format a report file's extension names; `flag` is the option that named the file, for the hint. */
export function reportFormatOf(file: string, flag = '--out'): ReportFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  throw new UsageError(`report file ${file} must end in .csv or .jsonl`, `Write ${flag} report.csv or ${flag} report.jsonl.`);
}

/**
 * A spreadsheet runs a cell that starts with =, +, -, @, tab or CR as a formula (CSV injection): such a cell gets a
 * leading apostrophe, which spreadsheets show as text. Numbers are written as numbers and so never need it.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvRecord(outcome: RowOutcome): string[] {
  return REPORT_COLUMNS.map((column) => {
    const value = outcome[column as keyof RowOutcome];
    if (value === undefined) return '';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    const text = typeof value === 'object' ? JSON.stringify(value) : value;
    // The CSV is the report people open (a terminal's `cat` included): control characters are shown, not acted on.
    // JSON Lines, for machines, keeps every value exactly (JSON escapes them itself).
    return neutraliseCell(printable(text));
  });
}

/**
 * The report as text chunks, one row at a time (CSV with a header, or JSON Lines), so that a large batch streams to a
 * file or an HTTP response without being held in memory. The one definition of the report's shape.
 */
export async function* reportLines(outcomes: AsyncIterable<RowOutcome>, format: ReportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...REPORT_COLUMNS]]);
  for await (const outcome of outcomes) {
    yield format === 'jsonl' ? `${JSON.stringify(outcome)}\n` : stringify([csvRecord(outcome)]);
  }
}

/** Writes a report (CSV or JSON Lines, from the file's extension) and returns how many rows it holds. */
export async function writeReport(outcomes: AsyncIterable<RowOutcome>, file: string): Promise<number> {
  const format = reportFormatOf(file);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const out = createWriteStream(file);
  const chunks = await writeChunks(reportLines(outcomes, format), out);
  out.end();
  await once(out, 'finish');
  return format === 'csv' ? chunks - 1 : chunks;
}

/** Writes text chunks to a stream as they come, waiting when it is full (memory stays flat); returns how many. */
export async function writeChunks(chunks: AsyncIterable<string>, out: NodeJS.WritableStream): Promise<number> {
  let written = 0;
  for await (const chunk of chunks) {
    written += 1;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  return written;
}
