import { stringify } from 'csv-stringify/sync';
import { neutraliseCell } from '../../queue/report-writer.js';
import { auditEntrySchema, type AuditEntry } from './audit-entry.js';
import type { StoredAuditEntry } from './audit-log.js';

export const AUDIT_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** CSV columns; `data` is its JSON. The JSON Lines export is the stored entries themselves (verifiable as they are). */
export const AUDIT_CSV_COLUMNS = ['seq', 'at', 'event', 'actor', 'subject', 'reason', 'data', 'prev', 'hash'] as const;

export interface AuditRange {
  /** Inclusive, ISO or epoch ms. */
  fromMs?: number;
  /** Exclusive. */
  toMs?: number;
}

/** How far the appending machines' clocks may be from Redis's: the stream is read this much wider, then `at` decides. */
const CLOCK_MARGIN_MS = 60 * 60 * 1000;

/** The stream part to read for a range of entry times (`at`). */
export function streamRangeOf(range: AuditRange): { fromMs?: number; toMs?: number } {
  return {
    ...(range.fromMs === undefined ? {} : { fromMs: range.fromMs - CLOCK_MARGIN_MS }),
    ...(range.toMs === undefined ? {} : { toMs: range.toMs + CLOCK_MARGIN_MS }),
  };
}

/** Entries whose `at` is within the range, parsed, in log order. */
export async function* entriesWithin(stored: AsyncIterable<StoredAuditEntry>, range: AuditRange): AsyncGenerator<{ entry: AuditEntry; raw: string }> {
  for await (const { raw } of stored) {
    const entry = auditEntrySchema.parse(JSON.parse(raw));
    const at = Date.parse(entry.at);
    if (range.fromMs !== undefined && at < range.fromMs) continue;
    if (range.toMs !== undefined && at >= range.toMs) continue;
    yield { entry, raw };
  }
}

/**
 * The export as text chunks: JSON Lines (each stored entry as it is, so `seatflow audit verify --file` checks it) or
 * CSV (for spreadsheets: cells that could run as formulas neutralised, as in reports).
 */
export async function* auditExportLines(entries: AsyncIterable<{ entry: AuditEntry; raw: string }>, format: AuditExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...AUDIT_CSV_COLUMNS]]);
  for await (const { entry, raw } of entries) {
    if (format === 'jsonl') {
      yield `${raw}\n`;
      continue;
    }
    yield stringify([
      AUDIT_CSV_COLUMNS.map((column) => {
        const value = entry[column];
        if (value === undefined) return '';
        if (typeof value === 'number') return String(value);
        return neutraliseCell(typeof value === 'string' ? value : JSON.stringify(value));
      }),
    ]);
  }
}

/** `--from`/`--to` as people write them: a date (`2026-11-01`, UTC midnight) or an ISO time. */
export function parseAuditTime(text: string, flag: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) throw new RangeError(`${flag} "${text}" is not a date (2026-11-01) or an ISO time (2026-11-01T09:00:00Z)`);
  return ms;
}
