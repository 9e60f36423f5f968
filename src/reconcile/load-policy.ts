import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';
import { policySchema, seatOf, TARGET_SEATS, type Policy, type TargetSeat } from './policy.js';

/** A source-of-truth CSV: lower-cased e-mail → the row's fields by lower-cased column name. */
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
      if (name !== undefined && !files.has(name)) files.set(name, await readSourceOfTruth(path.resolve(path.dirname(absolute), name), name));
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
  const value = row[column.toLowerCase()];
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
const lines = new WeakMap<object, number>();

async function readSourceOfTruth(file: string, name: string): Promise<SourceOfTruth> {
  const bytes = await readOrRefuse(file, `source-of-truth file "${name}"`);
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(bytes, { columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), bom: true, skip_empty_lines: true, trim: true, info: true });
  } catch (error) {
    throw new UsageError(`source-of-truth file "${name}" cannot be read as CSV: ${(error as Error).message}`, 'It needs a header row with an "email" column.');
  }
  const rows = new Map<string, Record<string, string>>();
  for (const { record, info } of records) {
    const email = record.email?.toLowerCase();
    if (email === undefined) throw new UsageError(`source-of-truth file "${name}" has no "email" column`, 'Add a header row with an "email" column.');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError(`source-of-truth file "${name}" line ${info.lines}: "${email}" is not an e-mail address`);
    if (rows.has(email)) throw new UsageError(`source-of-truth file "${name}" line ${info.lines}: ${email} is listed twice`, 'Keep one line per person.');
    lines.set(record, info.lines);
    rows.set(email, record);
  }
  return rows;
}

function checkSeatColumn(rows: SourceOfTruth, name: string, column: string, ruleIndex: number): void {
  for (const [email, row] of rows) {
    const line = lines.get(row) ?? 0;
    if (!(column.toLowerCase() in row)) throw new UsageError(`rules[${ruleIndex}]: source-of-truth file "${name}" has no "${column}" column`);
    const value = row[column.toLowerCase()] ?? '';
    if (value.trim() !== '' && seatInColumn(row, column) === undefined) {
      throw new UsageError(`source-of-truth file "${name}" line ${line} (${email}): "${value}" is not a seat (${TARGET_SEATS.join(', ')}; VIEWER = CONTRIBUTOR)`);
    }
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}
