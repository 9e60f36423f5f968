import { stringify } from 'csv-stringify/sync';
import { neutraliseCell, REPORT_COLUMNS, type ReportFormat } from '../queue/report-writer.js';
import type { RowOutcome } from '../queue/row-outcome.js';

/**
 * The report of a batch as text chunks, one row at a time, in the same columns and with the same CSV neutralisation
 * as `seatflow report`, so that a large batch streams to the caller without being held in memory.
 */
export async function* outcomeLines(outcomes: AsyncIterable<RowOutcome>, format: ReportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...REPORT_COLUMNS]]);
  for await (const outcome of outcomes) {
    yield format === 'jsonl' ? `${JSON.stringify(outcome)}\n` : stringify([csvCells(outcome)]);
  }
}

function csvCells(outcome: RowOutcome): string[] {
  return REPORT_COLUMNS.map((column) => {
    const value = outcome[column as keyof RowOutcome];
    if (value === undefined) return '';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return neutraliseCell(typeof value === 'object' ? JSON.stringify(value) : value);
  });
}
