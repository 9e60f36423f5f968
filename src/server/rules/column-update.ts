import { COLUMN_TYPES, columnWritableFields, type ColumnType } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import type { ColumnRecord, SheetRecord } from '../state/records.js';
import { convertCell } from './cell-conversion.js';

/** Attributes that need `type` in the same call (docs/service.md#columns, error 1090). */
const NEEDS_TYPE = ['options', 'symbol', 'systemColumnType', 'contactOptions', 'autoNumberFormat'] as const;
const PICKLISTS: readonly ColumnType[] = ['PICKLIST', 'MULTI_PICKLIST'];

/**
 * The value each settable attribute must have. Checked before storing, because the views copy these values
 * (`[...options]`): one stored wrong value would make every later read of the sheet's columns fail.
 */
const { title: _title, type: _type, index: _index, ...ATTRIBUTE_SCHEMAS } = columnWritableFields;
type ColumnAttributes = Partial<Pick<ColumnRecord, keyof typeof ATTRIBUTE_SCHEMAS>>;

/**
 * The attributes of an add or update body, in a fixed order; absent and null values are left out. Options only for
 * dropdown types (1060); any other wrong value is 400 1031.
 */
export function readColumnAttributes(body: Record<string, unknown>, type: ColumnType): ColumnAttributes {
  if (body.options !== undefined && !PICKLISTS.includes(type)) {
    throw ApiError.badRequest(1060, `Options are not allowed for columns of type ${type}.`);
  }
  const attributes: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ATTRIBUTE_SCHEMAS)) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    // An empty formula clears the column formula: the field is then absent, never `""` (issue 8, point 4).
    if (key === 'formula' && value === '') continue;
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid value for attribute ${key}.`);
    attributes[key] = parsed.data;
  }
  return attributes as ColumnAttributes;
}

/** Columns whose type is frozen while dependencies are on (docs/service.md#columns). */
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
 * Update column (docs/service.md#columns): one call may change properties, move and rename (rule 1); the primary column's
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
  const attributes = readColumnAttributes(body, newType);
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
  Object.assign(column, attributes);
  changed.push(...Object.keys(attributes));
  if (body.formula === '' && column.formula !== undefined) {
    delete column.formula;
    changed.push('formula');
  }
  if (index !== undefined && sheet.columns.indexOf(column) !== index) {
    sheet.columns.splice(sheet.columns.indexOf(column), 1);
    sheet.columns.splice(index, 0, column);
    changed.push('index');
  }
  return { changed, convertedCells };
}
