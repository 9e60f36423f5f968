import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';
import { foldName } from '../manifest/columns/column-vocabulary.js';
import { SOURCE_OF_TRUTH_COLUMNS } from '../manifest/columns/input-vocabularies.js';
import { openCsvTable } from '../manifest/csv-table.js';
import { ManifestFileError } from '../manifest/manifest-file-error.js';
import { policySchema, seatOf, TARGET_SEATS, type Policy, type TargetSeat } from './policy.js';

/** A source-of-truth CSV: lower-cased e-mail → the row's fields by column name, folded as headers are (foldName). */
export type SourceOfTruth = ReadonlyMap<string, Readonly<Record<string, string>>>;

export interface LoadedPolicy {
  /** Absolute path of the policy file. */
  path: string;
  /** SHA-256 of the policy file's bytes: every run's report names it, so a record says which policy decided. */
  sha256: string;
  policy: Policy;
  /** Every CSV named by `inFile` / `notInFile`, by the name the policy gives. */
  files: ReadonlyMap<string, SourceOfTruth>;
}

const POLICY_HINT = 'A policy looks like {"planId": …, "rules": [{"when": {"seat": "MEMBER", "lastLoginOlderThanDays": 90}, "then": {"seat": "CONTRIBUTOR"}}]}; see jobs/examples/.';
const targetSeat = seatOf(TARGET_SEATS);

/** Reads, hashes and checks a policy file (JSON) and the source-of-truth CSVs it names; refuses with every problem. */
export async function loadPolicy(file: string): Promise<LoadedPolicy> {
  const absolute = path.resolve(file);
  const bytes = await readOrRefuse(absolute, 'policy file');
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`policy ${file} is not valid JSON: ${(error as Error).message}`, POLICY_HINT);
  }
  const parsed = policySchema.safeParse(document);
  if (!parsed.success) throw new UsageError(`policy ${file} is refused: ${describeIssues(parsed.error)}`, POLICY_HINT);
  const policy = parsed.data;

  const files = new Map<string, SourceOfTruth>();
  for (const rule of policy.rules) {
    for (const name of [rule.when.inFile, rule.when.notInFile]) {
      if (name === undefined || files.has(name)) continue;
      // The columns rules read from this file by name are neither fields nor ignored.
      const read = policy.rules.flatMap((other) => (other.when.inFile === name && 'seatFromColumn' in other.then ? [other.then.seatFromColumn] : []));
      files.set(name, await readSourceOfTruth(path.resolve(path.dirname(absolute), name), name, read, policy.ignoreColumns));
    }
  }
  for (const [index, rule] of policy.rules.entries()) {
    if (!('seatFromColumn' in rule.then) || rule.when.inFile === undefined) continue;
    checkSeatColumn(files.get(rule.when.inFile)!, rule.when.inFile, rule.then.seatFromColumn, index);
  }
  return { path: absolute, sha256: createHash('sha256').update(bytes).digest('hex'), policy, files };
}

/** The seat a source-of-truth row names in `column` (checked when the policy was loaded). */
export function seatInColumn(row: Readonly<Record<string, string>>, column: string): TargetSeat | undefined {
  const value = row[foldName(column)];
  if (value === undefined || value.trim() === '') return undefined;
  const seat = targetSeat.safeParse(value);
  return seat.success ? seat.data : undefined;
}

async function readOrRefuse(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw fileRefusal(what, file, error, 'Check the path (a policy\'s CSV files are relative to the policy file).');
  }
}

/** The source line of each source-of-truth row, for messages about it. */
const sourceLines = new WeakMap<object, number>();

/**
 * Reads a source-of-truth CSV with the header rules of every input (src/manifest/columns): the e-mail column under
 * any of its names, a near miss of it refused, and a column nobody reads that holds dates or e-mails refused unless
 * the policy's `ignoreColumns` names it.
 */
async function readSourceOfTruth(file: string, name: string, read: readonly string[], ignore: readonly string[]): Promise<SourceOfTruth> {
  const bytes = await readOrRefuse(file, `source-of-truth file "${name}"`);
  const rows = new Map<string, Record<string, string>>();
  try {
    const { lines } = await openCsvTable(once(bytes.toString('utf8')), { emptyHint: 'It needs a header row with an "email" column.' });
    let headers: string[] | undefined;
    let reading: ReturnType<typeof SOURCE_OF_TRUTH_COLUMNS.readHeader> | undefined;
    let emailColumn = -1;
    for await (const { cells, line } of lines) {
      if (headers === undefined || reading === undefined) {
        headers = cells;
        reading = SOURCE_OF_TRUTH_COLUMNS.readHeader(cells, line, { read, ignore: ignore.filter((column) => cells.some((cell) => foldName(cell) === foldName(column))) });
        emailColumn = reading.fields.indexOf('email');
        if (emailColumn === -1) throw new UsageError(`source-of-truth file "${name}" has no "email" column`, 'Add a header row with an "email" column.');
        continue;
      }
      reading.checkIgnored((index) => cells[index], line);
      const email = (cells[emailColumn] ?? '').toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError(`source-of-truth file "${name}" line ${line}: "${email}" is not an e-mail address`);
      if (rows.has(email)) throw new UsageError(`source-of-truth file "${name}" line ${line}: ${email} is listed twice`, 'Keep one line per person.');
      const record = Object.fromEntries(headers.map((header, index) => [foldName(header), cells[index] ?? '']));
      sourceLines.set(record, line);
      rows.set(email, record);
    }
  } catch (error) {
    if (error instanceof ManifestFileError) throw new UsageError(`source-of-truth file "${name}": ${error.message}`, error.hint);
    throw error;
  }
  return rows;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

function checkSeatColumn(rows: SourceOfTruth, name: string, column: string, ruleIndex: number): void {
  for (const [email, row] of rows) {
    const line = sourceLines.get(row) ?? 0;
    if (!(foldName(column) in row)) throw new UsageError(`rules[${ruleIndex}]: source-of-truth file "${name}" has no "${column}" column`);
    const value = row[foldName(column)] ?? '';
    if (value.trim() !== '' && seatInColumn(row, column) === undefined) {
      throw new UsageError(`source-of-truth file "${name}" line ${line} (${email}): "${value}" is not a seat (${TARGET_SEATS.join(', ')}; VIEWER = CONTRIBUTOR)`);
    }
  }
}

/** The first problems of a parse, each with its path: `rules.0.when: a rule needs at least one condition`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}
