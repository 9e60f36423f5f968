import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileRefusal } from '../core/file-refusal.js';
import { emailSchema } from '../manifest/action.js';
import { emailRefusal } from '../manifest/email-refusal.js';
import type { ColumnChoices } from '../manifest/columns/column-vocabulary.js';
import { LEAVERS_COLUMNS, type LeaversField } from '../manifest/columns/input-vocabularies.js';
import { looksLikeEmails } from '../manifest/columns/value-shapes.js';
import { readInputTable, type InputTable } from '../manifest/input-table.js';
import { ManifestFileError } from '../manifest/manifest-file-error.js';
import { detectManifestFormat, type ManifestFormat } from '../manifest/manifest-format.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { ManifestRefusedError } from '../plan/manifest-refused-error.js';
import { parseLeaveDate } from './zoned-time.js';
import { plural } from '../core/plural.js';

/** Which column gave a leaver's leave date and how it was read, so the plan can show the instant and why. */
export interface LeaveDateSource {
  /** The cell as written. */
  written: string;
  /** The header of its column, as written. */
  column: string;
  /** `leaveDate`: the last day the person works; `leaveAt`: the moment access ends (docs/offboarding.md). */
  field: 'leaveDate' | 'leaveAt';
  /** A date without a time: read at offboarding.lastDayEndsAt (leaveDate) or at 00:00 (leaveAt). */
  dateAlone: boolean;
  /** What the value was read as, in words: `end of last day 2026-12-04 in Europe/Berlin`. */
  readAs: string;
}

/** One leaver as HR gave them. */
export interface Leaver {
  row: number;
  line: number;
  email: string;
  /** Epoch ms; undefined: now. */
  leaveAt?: number;
  /** Where `leaveAt` came from; undefined when the row has no leave date. */
  leaveDate?: LeaveDateSource;
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

/** `--email-column`, `--leave-date-column`, `--leave-at-column`, `--transfer-column`, `--ignore-column`. */
export type LeaversColumnChoices = ColumnChoices<LeaversField>;

export interface ReadLeaversOptions {
  path: string;
  /** The bytes when they do not come from `path` (control API). */
  content?: Buffer;
  /** --tz: the zone of dates without an offset. */
  timeZone?: string;
  maxRows?: number;
  /** What the person said about the columns (which column means what, which mean nothing). */
  columns?: LeaversColumnChoices;
  /** offboarding.lastDayEndsAt: when a last day written as a date alone ends access, `HH:MM`. Default `24:00`. */
  lastDayEndsAt?: string;
}

const HINT = 'A leavers file has an email column, optionally a leave date column (leaveDate, Last Day, …) and a transfer target column (transferTo, manager, …).';

/**
 * Reads an HR leavers file (CSV, JSON array or `{"rows": [...]}`, JSON Lines) with the header rules of every input
 * (src/manifest/columns): a column nearly named like a field, or a column seatflow does not use that holds dates or
 * e-mails, refuses the file with the option that says what it means. Every problem of every row is collected and
 * the file is refused whole when there is any (nothing is planned).
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
  try {
    const table = await readInputTable(text, format, { noun: 'leavers', hint: HINT });
    if (table.records.length === 0) throw new ManifestFileError('the file has no leavers', 0, HINT);
    if (options.maxRows !== undefined && table.records.length > options.maxRows) {
      throw new ManifestFileError(`the file has more than ${plural(options.maxRows, 'row')} (guardrails.maxRows)`, 0);
    }
    const { leavers, ignored } = readRows(table, options);
    return { path: path.resolve(options.path), sha256: createHash('sha256').update(bytes).digest('hex'), format, leavers, ignored };
  } catch (error) {
    if (error instanceof ManifestFileError) throw new ManifestRefusedError([{ row: 0, line: error.line, message: error.message }], 0, error.hint);
    throw error;
  }
}

function readRows(table: InputTable, options: ReadLeaversOptions): { leavers: Leaver[]; ignored: string[] } {
  const allHeaders = [...new Set(table.records.flatMap((record) => record.headers))];
  LEAVERS_COLUMNS.checkChoices(allHeaders, 1, options.columns);
  // CSV records share one header array; JSON objects with the same keys in the same order share a reading too.
  const readings = new Map<string, HeaderReading>();
  const readingOf = (headers: readonly string[], line: number) => {
    const key = JSON.stringify(headers);
    return readings.get(key) ?? readings.set(key, readHeader(headers, line, options)).get(key)!;
  };
  for (const record of table.records) readingOf(record.headers, record.headerLine);
  if (![...readings.values()].some(({ reading }) => reading.fields.includes('email'))) throw noEmailColumn(allHeaders, table);

  const problems: RowProblem[] = [];
  const leavers: Leaver[] = [];
  const seen = new Map<string, number>();
  table.records.forEach((record, index) => {
    const row = index + 1;
    const { reading, dateField, dateAloneAt } = readingOf(record.headers, record.headerLine);
    reading.checkIgnored((i) => record.values[i], record.line);
    const cell = (field: LeaversField): { value: string; column: string } | undefined => {
      const at = reading.fields.indexOf(field);
      const value = at === -1 ? undefined : record.values[at];
      return value === undefined || value === null || String(value).trim() === '' ? undefined : { value: String(value).trim(), column: record.headers[at] ?? field };
    };
    const rowProblem = (field: string, message: string) => problems.push({ row, line: record.line, field, message });
    const written = { email: cell('email')?.value, date: dateField === undefined ? undefined : cell(dateField), transferTo: cell('transferTo')?.value };
    const email = emailSchema.safeParse(written.email ?? '');
    if (!email.success) rowProblem('email', written.email === undefined ? 'no e-mail' : emailRefusal(written.email));
    let leaveAt: number | undefined;
    let leaveDate: LeaveDateSource | undefined;
    if (written.date !== undefined && dateField !== undefined) {
      const parsed = parseLeaveDate(written.date.value, options.timeZone, dateAloneAt);
      if ('problem' in parsed) rowProblem(dateField, parsed.problem);
      else {
        leaveAt = parsed.ms;
        leaveDate = { written: written.date.value, column: written.date.column, field: dateField, dateAlone: parsed.dateAlone, readAs: readAs(written.date.value, dateField, parsed.dateAlone, options.timeZone, dateAloneAt) };
      }
    }
    let transferTo: string | undefined;
    if (written.transferTo !== undefined) {
      const target = emailSchema.safeParse(written.transferTo);
      if (!target.success) rowProblem('transferTo', emailRefusal(written.transferTo));
      else transferTo = target.data;
    }
    if (!email.success) return;
    if (transferTo === email.data) rowProblem('transferTo', 'the transfer target is the leaver');
    const earlier = seen.get(email.data);
    if (earlier !== undefined) rowProblem('email', `${email.data} is already a leaver in row ${earlier}`);
    seen.set(email.data, row);
    leavers.push({ row, line: record.line, email: email.data, ...(leaveAt === undefined ? {} : { leaveAt, leaveDate }), ...(transferTo === undefined ? {} : { transferTo }) });
  });
  if (problems.length > 0) throw new ManifestRefusedError(problems, new Set(problems.map((p) => p.row)).size, `${HINT} Fix the rows above; nothing was planned.`);
  return { leavers, ignored: [...new Set([...readings.values()].flatMap(({ reading }) => reading.ignored))] };
}

/** One header (a CSV's, or a JSON object's keys) as read, with which date field it has and how a date alone is read. */
interface HeaderReading {
  reading: ReturnType<typeof LEAVERS_COLUMNS.readHeader>;
  dateField: 'leaveDate' | 'leaveAt' | undefined;
  dateAloneAt: string;
}

function readHeader(headers: readonly string[], line: number, options: ReadLeaversOptions): HeaderReading {
  // A JSON object need not carry every column a choice names: only the choices its keys hold apply to it.
  const reading = LEAVERS_COLUMNS.readHeader(headers, line, options.columns, true);
  const leaveDate = reading.fields.indexOf('leaveDate');
  const leaveAt = reading.fields.indexOf('leaveAt');
  if (leaveDate !== -1 && leaveAt !== -1) {
    throw new ManifestFileError(
      `columns "${headers[leaveDate]}" (leaveDate, the last day worked) and "${headers[leaveAt]}" (leaveAt, when access ends) both say when the leaver leaves`,
      line,
      `Keep one of them, or pass --ignore-column "${headers[leaveAt]}".`,
    );
  }
  const dateField = leaveDate !== -1 ? 'leaveDate' : leaveAt !== -1 ? 'leaveAt' : undefined;
  // The person works their last day: a date alone in a leaveDate column ends access at the end of it (docs/offboarding.md).
  return { reading, dateField, dateAloneAt: dateField === 'leaveDate' ? (options.lastDayEndsAt ?? '24:00') : '00:00' };
}

/** How a leave date was read, for the plan: the day and the time a date alone stands for, in its zone. */
function readAs(written: string, field: 'leaveDate' | 'leaveAt', dateAlone: boolean, zone: string | undefined, dateAloneAt: string): string {
  const inZone = zone === undefined || /(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(written) ? '' : ` in ${zone}`;
  if (!dateAlone) return `${written}${inZone}`;
  if (field === 'leaveAt') return `start of ${written}${inZone}`;
  return dateAloneAt === '24:00' ? `end of last day ${written}${inZone}` : `${dateAloneAt} on last day ${written}${inZone}`;
}

/** No e-mail column: name the columns that hold e-mails, since one of them is probably it. */
function noEmailColumn(headers: readonly string[], table: InputTable): ManifestFileError {
  const holding = headers.filter((header) => table.records.some((record) => looksLikeEmails(String(record.values[record.headers.indexOf(header)] ?? ''))));
  return new ManifestFileError(
    `no e-mail column in the header (${headers.join(', ')})`,
    1,
    holding.length === 0 ? HINT : `If ${holding.map((h) => `"${h}"`).join(' or ')} is the leaver's address, pass --email-column "${holding[0]}".`,
  );
}
