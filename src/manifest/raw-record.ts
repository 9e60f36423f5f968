import type { RowProblem } from './manifest-row.js';

/** One data row as read from the file, before validation: canonical field names, raw values. */
export type RawRecord =
  | { kind: 'record'; row: number; line: number; fields: Record<string, unknown> }
  /** A row that could not even be read as fields (a JSON Lines line that is not JSON, a CSV row with extra cells). */
  | { kind: 'unreadable'; problem: RowProblem };

/** Settings a reader found in the file itself (JSON `defaults`) and notes for the person (ignored columns). */
export interface ReaderNotes {
  defaults?: Record<string, unknown>;
  warnings: string[];
}
