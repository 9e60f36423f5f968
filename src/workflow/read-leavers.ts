import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { fileRefusal } from '../core/file-refusal.js';
import { emailSchema } from '../manifest/action.js';
import { detectManifestFormat, type ManifestFormat } from '../manifest/manifest-format.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { ManifestRefusedError } from '../plan/manifest-refused-error.js';
import { parseLeaveDate } from './zoned-time.js';
import { plural } from '../core/plural.js';

/** One leaver as HR gave them. */
export interface Leaver {
  row: number;
  line: number;
  email: string;
  /** Epoch ms; undefined: now. */
  leaveAt?: number;
  /** The row's transfer target (usually the manager). */
  transferTo?: string;
}

export interface LeaversFile {
  path: string;
  sha256: string;
  format: ManifestFormat;
  leavers: Leaver[];
  /** Columns that were ignored, for a note. */
  ignored: string[];
}

export interface ReadLeaversOptions {
  path: string;
  /** The bytes when they do not come from `path` (control API). */
  content?: Buffer;
  /** --tz: the zone of dates without an offset. */
  timeZone?: string;
  maxRows?: number;
}

/** Header spellings HR exports use, folded (lower case, letters and digits only). */
const FIELDS: Record<string, 'email' | 'leaveDate' | 'transferTo'> = {};
for (const name of ['email', 'emailaddress', 'mail', 'workemail', 'primaryemail', 'useremail', 'employeeemail', 'user']) FIELDS[name] = 'email';
for (const name of ['leavedate', 'leavedatetime', 'leaveat', 'leaveon', 'lastday', 'lastdate', 'lastworkingday', 'enddate', 'terminationdate', 'effectivedate', 'exitdate', 'employeeleavedatetime']) FIELDS[name] = 'leaveDate';
for (const name of ['transferto', 'transfertoemail', 'transfertarget', 'manager', 'manageremail', 'successor', 'successoremail', 'handoverto']) FIELDS[name] = 'transferTo';

const fold = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const HINT = 'A leavers file has an email column, optionally a leave date column (leaveDate, lastDay, …) and a transfer target column (transferTo, manager, …).';

/**
 * Reads an HR leavers file (CSV, JSON array or `{"rows": [...]}`, JSON Lines). Unknown columns are ignored; every
 * problem of every row is collected and the file is refused whole when there is any (nothing is planned).
 */
export async function readLeavers(options: ReadLeaversOptions): Promise<LeaversFile> {
  let bytes: Buffer;
  try {
    bytes = options.content ?? (await readFile(options.path));
  } catch (error) {
    throw fileRefusal('leavers file', options.path, error);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new ManifestRefusedError([{ row: 0, line: 0, message: 'the file is not UTF-8 text' }], 0, 'Export the file as UTF-8.');
  }
  const format = detectManifestFormat(options.path, text.slice(0, 4096));
  const records = format === 'csv' ? csvRecords(text) : jsonRecords(text, format);
  if (records.length === 0) throw new ManifestRefusedError([{ row: 0, line: 0, message: 'the file has no leavers' }], 0, HINT);
  if (options.maxRows !== undefined && records.length > options.maxRows) {
    throw new ManifestRefusedError([{ row: 0, line: 0, message: `the file has more than ${plural(options.maxRows, 'row')} (guardrails.maxRows)` }], 0);
  }
  const problems: RowProblem[] = [];
  const leavers: Leaver[] = [];
  const ignored = new Set<string>();
  const seen = new Map<string, number>();
  records.forEach((record, index) => {
    const row = index + 1;
    const fields: Partial<Record<'email' | 'leaveDate' | 'transferTo', string>> = {};
    for (const [name, value] of Object.entries(record.fields)) {
      const field = FIELDS[fold(name)];
      if (field === undefined) ignored.add(name);
      else if (value !== undefined && value !== null && String(value).trim() !== '') fields[field] = String(value).trim();
    }
    const rowProblem = (field: string, message: string) => problems.push({ row, line: record.line, field, message });
    const email = emailSchema.safeParse(fields.email ?? '');
    if (!email.success) rowProblem('email', fields.email === undefined ? 'no e-mail' : `"${fields.email}" is not a valid e-mail address`);
    let leaveAt: number | undefined;
    if (fields.leaveDate !== undefined) {
      const parsed = parseLeaveDate(fields.leaveDate, options.timeZone);
      if ('problem' in parsed) rowProblem('leaveDate', parsed.problem);
      else leaveAt = parsed.ms;
    }
    let transferTo: string | undefined;
    if (fields.transferTo !== undefined) {
      const target = emailSchema.safeParse(fields.transferTo);
      if (!target.success) rowProblem('transferTo', `"${fields.transferTo}" is not a valid e-mail address`);
      else transferTo = target.data;
    }
    if (!email.success) return;
    if (transferTo === email.data) rowProblem('transferTo', 'the transfer target is the leaver');
    const earlier = seen.get(email.data);
    if (earlier !== undefined) rowProblem('email', `${email.data} is already a leaver in row ${earlier}`);
    seen.set(email.data, row);
    leavers.push({ row, line: record.line, email: email.data, ...(leaveAt === undefined ? {} : { leaveAt }), ...(transferTo === undefined ? {} : { transferTo }) });
  });
  if (problems.length > 0) throw new ManifestRefusedError(problems, new Set(problems.map((p) => p.row)).size, `${HINT} Fix the rows above; nothing was planned.`);
  return { path: path.resolve(options.path), sha256: createHash('sha256').update(bytes).digest('hex'), format, leavers, ignored: [...ignored] };
}

interface SourceRecord {
  line: number;
  fields: Record<string, unknown>;
}

function csvRecords(text: string): SourceRecord[] {
  try {
    const rows = parse(text, { delimiter: [',', ';', '\t'], bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
    const [header, ...data] = rows;
    if (header === undefined) return [];
    const names = header.record;
    if (!names.some((name) => FIELDS[fold(name)] === 'email')) {
      throw new ManifestRefusedError([{ row: 0, line: 1, message: `no e-mail column in the header (${names.join(', ')})` }], 0, HINT);
    }
    return data.map(({ record, info }) => ({ line: info.lines, fields: Object.fromEntries(names.map((name, i) => [name, record[i]])) }));
  } catch (error) {
    if (error instanceof ManifestRefusedError) throw error;
    throw new ManifestRefusedError([{ row: 0, line: 0, message: `the CSV cannot be read: ${(error as Error).message}` }], 0, HINT);
  }
}

const objectSchema = z.record(z.string(), z.unknown());

function jsonRecords(text: string, format: ManifestFormat): SourceRecord[] {
  const refuse = (line: number, message: string): never => {
    throw new ManifestRefusedError([{ row: 0, line, message }], 0, HINT);
  };
  if (format === 'jsonl') {
    return text.split('\n').flatMap((source, index) => {
      if (source.trim() === '') return [];
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch (error) {
        return refuse(index + 1, `line ${index + 1} is not JSON: ${(error as Error).message}`);
      }
      const object = objectSchema.safeParse(value);
      return object.success ? [{ line: index + 1, fields: object.data }] : refuse(index + 1, `line ${index + 1} is not a JSON object`);
    });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return refuse(0, `the file is not valid JSON: ${(error as Error).message}`);
  }
  const rows = Array.isArray(document) ? document : objectSchema.safeParse(document).data?.rows;
  if (!Array.isArray(rows)) return refuse(1, 'the file is neither an array of leavers nor {"rows": [...]}');
  return rows.map((value, index) => {
    const object = objectSchema.safeParse(value);
    return object.success ? { line: 0, fields: object.data } : refuse(0, `element ${index + 1} is not a JSON object`);
  });
}
