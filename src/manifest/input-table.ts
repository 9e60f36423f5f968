import { z } from 'zod';
import { openCsvTable } from './csv-table.js';
import { ManifestFileError } from './manifest-file-error.js';
import type { ManifestFormat } from './manifest-format.js';
import { parseJsonLossless } from './parse-json-lossless.js';

/** One record of a file, whatever its format: its values in the order of its header. */
export interface InputRecord {
  line: number;
  headers: readonly string[];
  /** Where the header was (a CSV's first line, a JSON Lines object's own line; 0 when unknown). */
  headerLine: number;
  values: unknown[];
}

/**
 * A file as a table, whatever its format. A CSV's records share one header; each JSON object is its own header (its
 * keys), so rows may spell a field differently. `fields`: the other members of a JSON document `{"rows": [...], …}`
 * (an HR export's `generatedAt`, say); empty for CSV and JSON Lines.
 */
export interface InputTable {
  records: InputRecord[];
  fields: Readonly<Record<string, unknown>>;
}

export interface InputTableOptions {
  /** What a file of this kind holds, for messages: "leavers", "employees". */
  noun: string;
  /** What a file of this kind looks like, for messages. */
  hint: string;
}

/**
 * Reads a CSV, a JSON array or `{"rows": [...]}`, or JSON Lines into records, for inputs read column by column with
 * the header rules of src/manifest/columns (leavers files, HR exports). Throws ManifestFileError.
 */
export async function readInputTable(text: string, format: ManifestFormat, options: InputTableOptions): Promise<InputTable> {
  return format === 'csv' ? { records: await csvRecords(text, options), fields: {} } : jsonTable(text, format, options);
}

async function csvRecords(text: string, options: InputTableOptions): Promise<InputRecord[]> {
  const { lines } = await openCsvTable(once(text), { emptyHint: options.hint });
  let headers: string[] | undefined;
  let headerLine = 1;
  const records: InputRecord[] = [];
  for await (const { cells, line } of lines) {
    if (headers === undefined) [headers, headerLine] = [cells, line];
    else records.push({ line, headers, headerLine, values: cells });
  }
  return records;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

const objectSchema = z.record(z.string(), z.unknown());

function jsonTable(text: string, format: ManifestFormat, options: InputTableOptions): InputTable {
  const { objects, fields } = format === 'jsonl' ? { objects: jsonLines(text, options), fields: {} } : jsonRows(text, options);
  return { records: objects.map(({ line, values }) => ({ line, headers: Object.keys(values), headerLine: line, values: Object.values(values) })), fields };
}

function jsonLines(text: string, options: InputTableOptions): { line: number; values: Record<string, unknown> }[] {
  return text.split('\n').flatMap((source, index) => {
    if (source.trim() === '') return [];
    let value: unknown;
    try {
      value = parseJsonLossless(source);
    } catch (error) {
      throw new ManifestFileError(`line ${index + 1} is not JSON: ${(error as Error).message}`, index + 1, options.hint);
    }
    const object = objectSchema.safeParse(value);
    if (!object.success) throw new ManifestFileError(`line ${index + 1} is not a JSON object`, index + 1, options.hint);
    return [{ line: index + 1, values: object.data }];
  });
}

function jsonRows(text: string, options: InputTableOptions): { objects: { line: number; values: Record<string, unknown> }[]; fields: Record<string, unknown> } {
  let document: unknown;
  try {
    document = parseJsonLossless(text);
  } catch (error) {
    throw new ManifestFileError(`the file is not valid JSON: ${(error as Error).message}`, 0, options.hint);
  }
  const wrapper = Array.isArray(document) ? undefined : objectSchema.safeParse(document).data;
  const rows = Array.isArray(document) ? document : wrapper?.rows;
  if (!Array.isArray(rows)) throw new ManifestFileError(`the file is neither an array of ${options.noun} nor {"rows": [...]}`, 1, options.hint);
  const { rows: _rows, ...fields } = wrapper ?? {};
  return {
    objects: rows.map((value, index) => {
      const object = objectSchema.safeParse(value);
      if (!object.success) throw new ManifestFileError(`element ${index + 1} is not a JSON object`, 0, options.hint);
      return { line: 0, values: object.data };
    }),
    fields,
  };
}
