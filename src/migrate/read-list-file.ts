import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileRefusal } from '../core/file-refusal.js';
import { UsageError } from '../core/seatflow-error.js';
import { printable } from '../core/printable.js';
import { plural } from '../core/plural.js';

/** One value of a list file, with the line it came from. */
export interface ListedValue {
  line: number;
  value: string;
}

export interface ListFile {
  path: string;
  sha256: string;
  values: ListedValue[];
}

export interface ReadListFileOptions {
  path: string;
  /** The bytes when they do not come from `path` (the control API's upload). */
  content?: Buffer;
  /** What the file lists, for messages: `users`, `sheets`. */
  noun: string;
  /** Header names of the column to read, lower-case without spaces (`email`, `sheetid`): the first column otherwise. */
  columns: readonly string[];
  /** Checks one value; returns it normalised, or a message saying what is wrong. */
  check(value: string): { ok: true; value: string } | { ok: false; message: string };
}

/**
 * A list a migration is limited to (`--users FILE`, `--sheets FILE`): one value a line, or a CSV whose header names
 * the column (`email`, `sheetId`; other columns are ignored). Blank lines and `#` comments are skipped; duplicates are
 * kept once. Every bad line is listed in one refusal, so the file is fixed in one go.
 */
export async function readListFile(options: ReadListFileOptions): Promise<ListFile> {
  let bytes: Buffer;
  try {
    bytes = options.content ?? (await readFile(options.path));
  } catch (error) {
    throw fileRefusal(`${options.noun} file`, options.path, error);
  }
  const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const header = first < 0 ? [] : splitCells(lines[first] ?? '').map((cell) => cell.toLowerCase().replace(/[\s_-]/g, ''));
  const named = header.findIndex((cell) => options.columns.includes(cell));
  const column = named >= 0 ? named : 0;
  const problems: string[] = [];
  const seen = new Set<string>();
  const values: ListedValue[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '' || text.trim().startsWith('#') || (named >= 0 && i === first)) return;
    const cell = (splitCells(text)[column] ?? '').trim();
    const checked = options.check(cell);
    if (!checked.ok) {
      problems.push(`  line ${i + 1}: ${printable(cell === '' ? '(empty)' : cell)}: ${checked.message}`);
      return;
    }
    if (seen.has(checked.value)) return;
    seen.add(checked.value);
    values.push({ line: i + 1, value: checked.value });
  });
  if (problems.length > 0) {
    throw new UsageError(`${options.path}: ${plural(problems.length, 'line')} cannot be read:\n${problems.slice(0, 50).join('\n')}`, `One ${options.noun === 'users' ? 'e-mail address' : 'sheet id'} a line, or a CSV with a column named ${options.columns[0] ?? ''}.`);
  }
  if (values.length === 0) throw new UsageError(`${options.path} lists no ${options.noun}`, `One ${options.noun === 'users' ? 'e-mail address' : 'sheet id'} a line.`);
  return { path: options.path, sha256: createHash('sha256').update(bytes).digest('hex'), values };
}

/** A CSV line's cells: commas outside double quotes split it (list files hold ids and addresses, no line breaks). */
function splitCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  cells.push(cell);
  return cells.map((each) => each.trim());
}
