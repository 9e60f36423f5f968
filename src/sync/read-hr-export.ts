import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileRefusal } from '../core/file-refusal.js';
import { emailSchema } from '../manifest/action.js';
import { CompactStringSet } from '../manifest/compact-string-set.js';
import type { HeaderReading } from '../manifest/columns/column-vocabulary.js';
import { HR_EXPORT_COLUMNS, type HrExportField } from '../manifest/columns/input-vocabularies.js';
import { openCsvTable } from '../manifest/csv-table.js';
import { readInputTable } from '../manifest/input-table.js';
import { ManifestFileError } from '../manifest/manifest-file-error.js';
import { detectManifestFormat, type ManifestFormat } from '../manifest/manifest-format.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { RowStore, type RowList } from '../manifest/row-store.js';
import { ManifestRefusedError } from '../plan/manifest-refused-error.js';
import type { DateSource, Employee, EmploymentStatus } from './employee.js';
import { parseExportDate, zoneOf } from './export-dates.js';
import type { LifecyclePolicy } from './lifecycle-policy.js';

export interface HrExport {
  path: string;
  sha256: string;
  format: ManifestFormat;
  /** In the export's order; kept compact (a RowStore: 100,000 employees are a few MB), read by iterating. */
  employees: RowList<Employee>;
  /** Columns no field uses, ignored (for a note). */
  ignored: string[];
  /** When the HR system wrote the export, by what the policy says (`exportTime`). */
  exportedAt: number;
  exportedAtFrom: 'column' | 'file-modified';
}

export interface ReadHrExportOptions {
  path: string;
  policy: LifecyclePolicy;
  /** When a last day written as a date alone ends access (the policy's, else config offboarding.lastDayEndsAt). */
  lastDayEndsAt: string;
  maxRows?: number;
  /** The export as it was read before (kept with a change request): its bytes and the file's modification time. */
  content?: { bytes: Buffer; modifiedAt: number };
}

const HINT = 'An HR export has a row per employee with an employee id and a work e-mail, and optionally status, start date, end date, department, title, manager e-mail and location (docs/sync.md, "The HR export").';

/** A problem of one row, or of the whole file (row 0). */
type Problems = RowProblem[];

/**
 * Reads an HR export (CSV, JSON array or `{"rows": [...]}`, JSON Lines) with the header rules of every input
 * (src/manifest/columns, kind "HR export"): column names mapped in the policy's `columns`, a near miss refused, a
 * column nobody reads that holds dates or e-mails refused unless the policy's `ignoreColumns` names it. Every problem
 * of every row is collected and the export is refused whole when there is any: a sync never acts on half a file. A
 * CSV is read record by record: what stays in memory is the file's bytes and the employees, kept compact.
 */
export async function readHrExport(options: ReadHrExportOptions): Promise<HrExport> {
  const file = path.resolve(options.path);
  let bytes: Buffer;
  let modifiedAt: number;
  try {
    [bytes, modifiedAt] = options.content === undefined ? await Promise.all([readFile(file), stat(file).then((info) => info.mtimeMs)]) : [options.content.bytes, options.content.modifiedAt];
  } catch (error) {
    throw fileRefusal('HR export', options.path, error);
  }
  if (!isUtf8(bytes)) throw new ManifestRefusedError([{ row: 0, line: 0, message: 'the HR export is not UTF-8 text' }], 0, 'Export it as UTF-8.');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const format = detectManifestFormat(file, decodedOf(bytes.subarray(0, 4096), true));
  const reader = createRowReader(options);
  try {
    if (format === 'csv') {
      const { lines } = await openCsvTable(textOf(bytes), { emptyHint: HINT });
      let reading: HeaderReading<HrExportField> | undefined;
      let headers: string[] = [];
      for await (const { cells, line } of lines) {
        if (reading === undefined) {
          headers = cells;
          HR_EXPORT_COLUMNS.checkChoices(headers, line, choicesOf(options.policy));
          reading = reader.header(headers, line);
          continue;
        }
        reader.row(reading, headers, cells, line);
      }
    } else {
      const table = await readInputTable(decodedOf(bytes), format, { noun: 'employees', hint: HINT });
      HR_EXPORT_COLUMNS.checkChoices([...new Set(table.records.flatMap((record) => record.headers))], 1, choicesOf(options.policy));
      const readings = new Map<string, HeaderReading<HrExportField>>();
      for (const record of table.records) {
        const key = JSON.stringify(record.headers);
        const reading = readings.get(key) ?? readings.set(key, reader.header(record.headers, record.headerLine, true)).get(key)!;
        reader.row(reading, record.headers, record.values, record.line);
      }
      const top = table.fields.generatedAt;
      if (top !== undefined && top !== null) reader.generatedAt(String(top), 'generatedAt', 1);
    }
  } catch (error) {
    if (error instanceof ManifestFileError) throw new ManifestRefusedError([{ row: 0, line: error.line, message: error.message }], 0, error.hint);
    throw error;
  }
  return reader.finish({ path: file, sha256, format, modifiedAt });
}

function choicesOf(policy: LifecyclePolicy) {
  return { columns: policy.columns, ignore: policy.ignoreColumns };
}

/** The export's text without its BOM; `head`: the start of a longer text (a character cut at the end is left out). */
function decodedOf(bytes: Buffer, head = false): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: head }).replace(/^\uFEFF/, '');
}

const SLICE_BYTES = 1024 * 1024;

/** The text a slice at a time: a CSV export is parsed without its whole text on the heap (100,000 rows are ~10 MB). */
async function* textOf(bytes: Buffer): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at === 0 || at < bytes.length; at += SLICE_BYTES) {
    const text = decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: at + SLICE_BYTES < bytes.length });
    yield at === 0 ? text.replace(/^\uFEFF/, '') : text;
  }
}

/** Reads rows one at a time into employees, collecting problems; refuses at the end if there is any. */
function createRowReader(options: ReadHrExportOptions) {
  const { policy } = options;
  const employees = new RowStore<Employee>();
  const problems: Problems = [];
  const byId = createRowsByKey();
  const byEmail = createRowsByKey();
  const statusOf = new Map<string, EmploymentStatus>([
    ...policy.statuses.active.map((value): [string, EmploymentStatus] => [value.trim().toLowerCase(), 'active']),
    ...policy.statuses.leaver.map((value): [string, EmploymentStatus] => [value.trim().toLowerCase(), 'leaver']),
  ]);
  let generated: { at: number; written: string; line: number } | undefined;
  let hasEmployeeId = false;
  let hasEmail = false;
  const ignored = new Set<string>();
  let rows = 0;

  const generatedAt = (written: string, column: string, line: number): void => {
    const read = parseExportDate(written, policy.timeZone, policy.dateFormat, '00:00');
    if ('problem' in read) {
      problems.push({ row: 0, line, field: 'generatedAt', message: `${column}: ${read.problem}` });
      return;
    }
    if (generated === undefined) generated = { at: read.ms, written, line };
    else if (generated.at !== read.ms) problems.push({ row: 0, line, field: 'generatedAt', message: `${column} says "${written}" here and "${generated.written}" on line ${generated.line}: an export is written at one time` });
  };

  return {
    generatedAt,
    header(headers: readonly string[], line: number, partial = false): HeaderReading<HrExportField> {
      const reading = HR_EXPORT_COLUMNS.readHeader(headers, line, choicesOf(policy), partial);
      hasEmployeeId ||= reading.fields.includes('employeeId');
      hasEmail ||= reading.fields.includes('email');
      for (const column of reading.ignored) ignored.add(column);
      return reading;
    },
    row(reading: HeaderReading<HrExportField>, headers: readonly string[], values: readonly unknown[], line: number): void {
      rows += 1;
      if (options.maxRows !== undefined && rows > options.maxRows) throw new ManifestFileError(`the export has more than ${options.maxRows} rows (guardrails.maxRows)`, line);
      const row = rows;
      reading.checkIgnored((index) => values[index], line);
      const cell = (field: HrExportField): { value: string; column: string } | undefined => {
        const at = reading.fields.indexOf(field);
        const value = at === -1 ? undefined : values[at];
        return value === undefined || value === null || String(value).trim() === '' ? undefined : { value: String(value).trim(), column: headers[at] ?? field };
      };
      const problem = (field: string, message: string) => problems.push({ row, line, field, message });
      const employeeId = cell('employeeId')?.value;
      if (employeeId === undefined) problem('employeeId', 'no employee id');
      const written = cell('email')?.value;
      const email = emailSchema.safeParse(written ?? '');
      if (!email.success) problem('email', written === undefined ? 'no work e-mail' : `"${written}" is not a valid e-mail address`);
      const statusCell = cell('status');
      const status = statusCell === undefined ? undefined : statusOf.get(statusCell.value.toLowerCase());
      if (statusCell !== undefined && status === undefined) {
        problem('status', `status "${statusCell.value}" is neither active nor a leaver in the policy's "statuses": add it to "active" or "leaver"`);
      }
      const ownZone = cell('timeZone')?.value;
      if (ownZone !== undefined && !validZone(ownZone)) problem('timeZone', `"${ownZone}" is not an IANA time zone (e.g. Europe/Berlin)`);
      const location = cell('location')?.value;
      const zone = zoneOf(policy, ownZone !== undefined && validZone(ownZone) ? ownZone : undefined, location);
      const date = (field: 'startDate' | 'endDate' | 'effectiveDate', dateAloneAt: string): { at: number; source: DateSource } | undefined => {
        const given = cell(field);
        if (given === undefined) return undefined;
        const read = parseExportDate(given.value, zone, policy.dateFormat, dateAloneAt);
        if ('problem' in read) {
          problem(field, read.problem);
          return undefined;
        }
        const what = !read.dateAlone ? `${given.value} in ${zone}` : field === 'endDate' ? (dateAloneAt === '24:00' ? `end of last day ${given.value} in ${zone}` : `${dateAloneAt} on last day ${given.value} in ${zone}`) : `start of ${given.value} in ${zone}`;
        return { at: read.ms, source: { written: given.value, column: given.column, readAs: what } };
      };
      const start = date('startDate', '00:00');
      const end = date('endDate', options.lastDayEndsAt);
      const effective = date('effectiveDate', '00:00');
      const generatedCell = cell('generatedAt');
      if (generatedCell !== undefined) generatedAt(generatedCell.value, generatedCell.column, line);
      const managerWritten = cell('managerEmail')?.value;
      const manager = managerWritten === undefined ? undefined : emailSchema.safeParse(managerWritten);
      if (manager !== undefined && !manager.success) problem('managerEmail', `"${managerWritten ?? ''}" is not an e-mail address (the manager's work e-mail is the transfer target)`);
      if (employeeId === undefined || !email.success) return;
      if (manager?.success === true && manager.data === email.data) problem('managerEmail', 'the employee is their own manager');
      const earlierId = byId.get(employeeId);
      if (earlierId !== undefined) problem('employeeId', `employee ${employeeId} is already in row ${earlierId}`);
      const earlierEmail = byEmail.get(email.data);
      if (earlierEmail !== undefined) problem('email', `${email.data} is already the e-mail of row ${earlierEmail}`);
      byId.set(employeeId, row);
      byEmail.set(email.data, row);
      const text = (field: 'department' | 'title' | 'firstName' | 'lastName') => cell(field)?.value;
      const [department, title, firstName, lastName] = [text('department'), text('title'), text('firstName'), text('lastName')];
      employees.append({
        row,
        line,
        employeeId,
        email: email.data,
        ...(status === undefined ? {} : { status, statusWritten: statusCell?.value }),
        ...(start === undefined ? {} : { startAt: start.at, start: start.source }),
        ...(end === undefined ? {} : { endAt: end.at, end: end.source }),
        ...(effective === undefined ? {} : { effectiveAt: effective.at, effective: effective.source }),
        ...(department === undefined ? {} : { department }),
        ...(title === undefined ? {} : { title }),
        ...(location === undefined ? {} : { location }),
        ...(manager?.success === true ? { managerEmail: manager.data } : {}),
        ...(firstName === undefined ? {} : { firstName }),
        ...(lastName === undefined ? {} : { lastName }),
        timeZone: zone,
      });
    },
    finish(file: { path: string; sha256: string; format: ManifestFormat; modifiedAt: number }): HrExport {
      if (rows === 0) throw new ManifestRefusedError([{ row: 0, line: 0, message: 'the HR export has no employees' }], 0, HINT);
      const missing = [...(hasEmployeeId ? [] : ['employeeId']), ...(hasEmail ? [] : ['email'])];
      if (missing.length > 0) {
        throw new ManifestRefusedError(
          [{ row: 0, line: 1, message: `no ${missing.join(' and no ')} column in the header` }],
          0,
          `Name the columns in the policy's "columns", e.g. {"${missing[0] ?? 'email'}": "Work Email"}. ${HINT}`,
        );
      }
      if (policy.exportTime === 'column' && generated === undefined) problems.push({ row: 0, line: 1, field: 'generatedAt', message: 'the policy says the export\'s time is in its generatedAt column ("exportTime": "column"), and the export has none' });
      if (problems.length > 0) {
        throw new ManifestRefusedError(problems, new Set(problems.filter((p) => p.row > 0).map((p) => p.row)).size, `Fix the export (or the policy), then run the sync again; nothing was planned. ${HINT}`);
      }
      const fromColumn = policy.exportTime !== 'file-modified' && generated !== undefined;
      return {
        path: file.path,
        sha256: file.sha256,
        format: file.format,
        employees,
        ignored: [...ignored],
        exportedAt: fromColumn && generated !== undefined ? generated.at : Math.round(file.modifiedAt),
        exportedAtFrom: fromColumn ? 'column' : 'file-modified',
      };
    },
  };
}

/**
 * Which row holds each employee id (or e-mail), to name a duplicate's first row: a Map of 100,000 strings held them on
 * the heap; the keys packed off it and the rows as small integers cost a few bytes each.
 */
function createRowsByKey() {
  const keys = new CompactStringSet();
  const rows: number[] = [];
  return {
    get: (key: string): number | undefined => {
      const at = keys.indexOf(key);
      return at === -1 ? undefined : rows[at];
    },
    /** The row of `key` from now on (a third row of an id names the second, as a Map's set did). */
    set: (key: string, row: number): void => {
      const at = keys.indexOf(key);
      if (at !== -1) rows[at] = row;
      else {
        keys.add(key);
        rows.push(row);
      }
    },
  };
}

/** Zones found valid: a DateTimeFormat made per row to check one is slow and holds memory off the heap until collected. */
const validZones = new Set<string>();

function validZone(zone: string): boolean {
  if (validZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    validZones.add(zone);
    return true;
  } catch {
    return false;
  }
}
