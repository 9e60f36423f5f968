import { COLUMN_TYPES, type ColumnType } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import type { ColumnRecord, SheetRecord } from '../state/records.js';
import { convertCell } from './cell-conversion.js';

/** Attributes that need `type` in the same call (interface.md rule 5; wire.md §7 C4, error 1090). */
const NEEDS_TYPE = ['options', 'symbol', 'systemColumnType', 'contactOptions', 'autoNumberFormat'] as const;
const SIMPLE = ['width', 'hidden', 'locked', 'validation', 'description', 'formula', 'format'] as const;
const PICKLISTS: readonly ColumnType[] = ['PICKLIST', 'MULTI_PICKLIST'];

/** Columns whose type is frozen while dependencies are on (interface.md rule 3). */
export function isScheduleColumn(column: ColumnRecord): boolean {
  return (column.tags ?? []).some((t) => /^(CALENDAR|GANTT|BASELINE)_/.test(t));
}

export function parseColumnType(value: unknown): ColumnType {
  const text = typeof value === 'string' ? value.toUpperCase() : '';
  if (!(COLUMN_TYPES as readonly string[]).includes(text)) {
    throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid column type: ${String(value)}`);
  }
  return text as ColumnType;
}

export interface ColumnUpdateOutcome {
  changed: string[];
  convertedCells: number;
}

/**
 * Update column (decisions.md #18): one call may change properties, move and rename (rule 1); the primary column's
 * type is fixed (rule 2); schedule columns keep their type while dependencies are on (rule 3); a type change converts
 * every cell of the column (rule 4); `type` is needed for type and dropdown changes only (rule 5). Everything is
 * checked before anything changes.
 */
export function updateColumn(sheet: SheetRecord, column: ColumnRecord, body: Record<string, unknown>): ColumnUpdateOutcome {
  const changed: string[] = [];
  const hasType = body.type !== undefined && body.type !== null;
  const newType = hasType ? parseColumnType(body.type) : column.type;
  for (const key of NEEDS_TYPE) {
    if (body[key] !== undefined && !hasType) {
      throw ApiError.badRequest(CODES.typeRequired, `The type attribute is required when changing ${key}.`);
    }
  }
  const typeChanges = newType !== column.type;
  if (typeChanges && column.primary) {
    throw ApiError.badRequest(CODES.primaryMustBeTextNumber, 'The type of the primary column cannot be changed.');
  }
  if (typeChanges && sheet.dependenciesEnabled && isScheduleColumn(column)) {
    throw ApiError.badRequest(
      CODES.badSystemColumnChange,
      'The type of a calendar/Gantt column cannot be changed while dependencies are enabled on the sheet.',
    );
  }
  if (body.options !== undefined && !PICKLISTS.includes(newType)) {
    throw ApiError.badRequest(1060, `Options are not allowed for columns of type ${newType}.`);
  }
  let title: string | undefined;
  if (body.title !== undefined) {
    if (typeof body.title !== 'string' || body.title.trim() === '') throw ApiError.badRequest(CODES.invalidAttributeValue, 'Invalid title.');
    const wanted = body.title;
    title = wanted;
    const clash = sheet.columns.find((c) => c !== column && c.title.toLowerCase() === wanted.toLowerCase());
    if (clash !== undefined) throw ApiError.badRequest(CODES.duplicateTitle, 'Column titles must be unique.');
  }
  let index: number | undefined;
  if (body.index !== undefined) {
    index = Number(body.index);
    if (!Number.isInteger(index) || index < 0 || index >= sheet.columns.length) {
      throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid column index: ${String(body.index)}`);
    }
  }
  // Checks done: apply.
  if (title !== undefined && title !== column.title) {
    column.title = title;
    changed.push('title');
  }
  let convertedCells = 0;
  if (typeChanges) {
    for (const row of sheet.rows) {
      const key = String(column.id);
      if (row.cells[key] === undefined) continue;
      row.cells[key] = convertCell(row.cells[key] ?? null, newType);
      convertedCells += 1;
    }
    column.type = newType;
    column.validation = false;
    if (!PICKLISTS.includes(newType)) delete column.options;
    changed.push('type');
  }
  for (const key of NEEDS_TYPE) {
    if (body[key] !== undefined) {
      (column as unknown as Record<string, unknown>)[key] = body[key];
      changed.push(key);
    }
  }
  for (const key of SIMPLE) {
    if (body[key] !== undefined && body[key] !== null) {
      (column as unknown as Record<string, unknown>)[key] = body[key];
      changed.push(key);
    }
  }
  if (index !== undefined && sheet.columns.indexOf(column) !== index) {
    sheet.columns.splice(sheet.columns.indexOf(column), 1);
    sheet.columns.splice(index, 0, column);
    changed.push('index');
  }
  return { changed, convertedCells };
}
