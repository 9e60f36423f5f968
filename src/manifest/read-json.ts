import { MANIFEST_COLUMNS } from './columns/input-vocabularies.js';
import { ManifestFileError } from './manifest-file-error.js';
import type { RowProblem } from './manifest-row.js';
import { parseJsonLossless } from './parse-json-lossless.js';
import type { RawRecord, ReaderNotes } from './raw-record.js';

const JSON_HINT = 'A JSON manifest looks like {"version":1,"defaults":{…},"rows":[{"action":"deactivate","email":"…"}]}.';

/**
 * Reads a JSON manifest `{"version":1,"defaults":{…},"rows":[…]}`. JSON is parsed whole (the plan keeps every row
 * anyway); each row's source line is found with a small scan so problems still point at a line.
 */
export async function* readJson(text: AsyncIterable<string>, notes: ReaderNotes): AsyncGenerator<RawRecord> {
  let source = '';
  for await (const chunk of text) source += chunk;
  source = source.replace(/^\uFEFF/, '');
  if (source.trim() === '') throw new ManifestFileError('the file is empty', 0, JSON_HINT);
  let document: unknown;
  try {
    document = parseJsonLossless(source);
  } catch (error) {
    const line = lineOfError(source, (error as Error).message);
    throw new ManifestFileError(`the file is not valid JSON${line > 0 ? ` (line ${line})` : ''}: ${(error as Error).message}`, line, JSON_HINT);
  }
  const rows = Array.isArray(document) ? document : isObject(document) ? document.rows : undefined;
  if (isObject(document)) {
    if (document.version !== undefined && document.version !== 1) {
      throw new ManifestFileError(`manifest version ${JSON.stringify(document.version)} is not supported (only 1)`, 1, JSON_HINT);
    }
    if (document.defaults !== undefined) {
      if (!isObject(document.defaults)) throw new ManifestFileError('"defaults" must be an object of field values', 1, JSON_HINT);
      const defaults = toFields(document.defaults);
      if (defaults.problems.length > 0) throw new ManifestFileError(`defaults: ${defaults.problems.map((p) => p.message).join('; ')}`, 1, JSON_HINT);
      notes.defaults = defaults.fields;
    }
  }
  if (!Array.isArray(rows)) throw new ManifestFileError('the file has no "rows" array', 1, JSON_HINT);
  const lines = elementLines(source, Array.isArray(document));
  for (let i = 0; i < rows.length; i += 1) {
    yield recordFromObject(rows[i], i + 1, lines[i] ?? 0);
  }
}

/** Turns one JSON object (a JSON row or a JSON Lines line) into a raw record, or a problem when it is no object. */
export function recordFromObject(value: unknown, row: number, line: number): RawRecord {
  if (!isObject(value)) return { kind: 'unreadable', problem: { row, line, message: 'a row must be a JSON object of fields' } };
  const { fields, problems } = toFields(value);
  if (problems.length > 0) return { kind: 'unreadable', problem: { row, line, ...problems[0]! } };
  return { kind: 'record', row, line, fields };
}

type FieldProblem = Omit<RowProblem, 'row' | 'line'>;

function toFields(value: Record<string, unknown>): { fields: Record<string, unknown>; problems: FieldProblem[] } {
  const fields: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [key, raw] of Object.entries(value)) {
    const field = MANIFEST_COLUMNS.fieldOf(key);
    if (field === undefined) {
      problems.push(unknownField(key));
      continue;
    }
    // A nested user {email} / {userId} is the same as the flat fields; a nested transferTo collapses to its value.
    if ((field === 'user' || field === 'transferTo') && isObject(raw)) {
      const ref = userRefOf(raw, field, problems);
      if (field === 'user') Object.assign(fields, ref);
      else fields.transferTo = ref.userId ?? ref.email;
      continue;
    }
    fields[field] = typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'string' || Array.isArray(raw) || raw === null ? raw : JSON.stringify(raw);
  }
  return { fields, problems };
}

/** JSON keys are never ignored: an unknown one is refused, with the near miss a CSV header would be refused for. */
function unknownField(key: string): FieldProblem {
  const guess = MANIFEST_COLUMNS.nearMiss(key);
  return { field: key, message: `unknown field "${key}"${guess === undefined ? '' : `: did you mean "${guess}"?`}` };
}

/**
 * The e-mail and id of a nested user reference. Any other key is refused: `{"transferTo": {"mail": …}}` must not
 * become a removal without a transfer target.
 */
function userRefOf(raw: Record<string, unknown>, parent: string, problems: FieldProblem[]): { email?: unknown; userId?: unknown } {
  const ref: { email?: unknown; userId?: unknown } = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = MANIFEST_COLUMNS.fieldOf(key);
    if (field === 'email' || field === 'userId') ref[field] = value;
    else problems.push({ field: `${parent}.${key}`, message: `unknown field "${parent}.${key}": a ${parent} is {"email": …} or {"userId": …}` });
  }
  return ref;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lineOfError(source: string, message: string): number {
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return 0;
  return source.slice(0, Number(position[1])).split('\n').length;
}

/**
 * The 1-based line where each element of the rows array starts: of the top-level array when the document is an array,
 * else of the top-level "rows" key. A character scan that knows strings and nesting, nothing more.
 */
function elementLines(source: string, topLevelArray: boolean): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  let lastKey = '';
  let rowsDepth = topLevelArray ? 1 : -1;
  let expectElement = false;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\n') line += 1;
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') {
        inString = false;
        if (depth === 1) lastKey = source.slice(stringStart + 1, i);
      }
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    if (expectElement && char !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (char === '"') {
      inString = true;
      stringStart = i;
    } else if (char === '{' || char === '[') {
      depth += 1;
      if (char === '[' && depth === 2 && !topLevelArray && lastKey === 'rows' && rowsDepth === -1) rowsDepth = 2;
      if (depth === rowsDepth && char === '[') expectElement = true;
    } else if (char === '}' || char === ']') {
      depth -= 1;
    } else if (char === ',' && depth === rowsDepth) {
      expectElement = true;
    }
  }
  return lines;
}
