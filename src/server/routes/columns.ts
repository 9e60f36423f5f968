import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { paginate, readPaging } from '../http/paging.js';
import { pathId, queryIncludes, queryInt } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { parseColumnType, readColumnAttributes, updateColumn } from '../rules/column-update.js';
import type { ColumnRecord, SheetRecord } from '../state/records.js';
import { columnView } from '../state/sheet-views.js';
import { bodyObject, requireSheet, success } from './route-helpers.js';

function level(ctx: RouteContext): number {
  return Math.max(0, queryInt(ctx.query, 'level') ?? 0);
}

function includeFormat(ctx: RouteContext): boolean {
  return queryIncludes(ctx.query).has('format');
}

function requireColumn(ctx: RouteContext, sheet: SheetRecord): ColumnRecord {
  const id = pathId(ctx.params.columnId);
  const column = sheet.columns.find((c) => c.id === id);
  if (column === undefined) throw ApiError.notFound('Column not found.');
  return column;
}

function touch(ctx: RouteContext, sheet: SheetRecord): void {
  sheet.version += 1;
  sheet.modifiedAt = ctx.server.clock.now();
}

/** Add columns: all inputs share one index (1135), titles unique (1133, 1056), type valid. */
function addColumns(ctx: RouteContext): unknown {
  const { sheet } = requireSheet(ctx, 'ADMIN');
  const items = Array.isArray(ctx.body) ? ctx.body : ctx.body !== undefined && ctx.body !== null ? [ctx.body] : [];
  if (items.length === 0) throw ApiError.badRequest(CODES.requiredAttributeMissing, 'At least one column is required.');
  const inputs = items.map((item) => {
    if (item === null || typeof item !== 'object') throw ApiError.badRequest(CODES.unparsable, 'Each column must be an object.');
    const body = item as Record<string, unknown>;
    if (typeof body.title !== 'string' || body.title.trim() === '' || body.type === undefined || body.index === undefined) {
      throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: title, type, index');
    }
    const index = Number(body.index);
    if (!Number.isInteger(index) || index < 0 || index > sheet.columns.length) {
      throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid column index: ${String(body.index)}`);
    }
    const type = parseColumnType(body.type);
    return { title: body.title, type, index, attributes: readColumnAttributes(body, type) };
  });
  if (new Set(inputs.map((i) => i.index)).size > 1) throw ApiError.badRequest(1135, 'All columns must have the same index.');
  const titles = inputs.map((i) => i.title.toLowerCase());
  if (new Set(titles).size !== titles.length) throw ApiError.badRequest(1133, 'Column titles must be unique within the request.');
  if (sheet.columns.some((c) => titles.includes(c.title.toLowerCase()))) {
    throw ApiError.badRequest(CODES.duplicateTitle, 'Column titles must be unique.');
  }
  const created = inputs.map(({ title, type, attributes }): ColumnRecord => ({
    id: ctx.server.state.ids.next(),
    title,
    type,
    primary: false,
    width: 150,
    hidden: false,
    locked: false,
    validation: false,
    ...attributes,
  }));
  sheet.columns.splice(inputs[0]?.index ?? sheet.columns.length, 0, ...created);
  touch(ctx, sheet);
  for (const column of created) {
    ctx.server.mutations.record({ operation: 'addColumns', resourceType: 'column', resourceId: column.id, summary: `added column "${column.title}" (${column.type}) to sheet ${sheet.id}` });
    ctx.server.events.sheet(sheet, { objectType: 'column', eventType: 'created', id: column.id });
  }
  // Added columns are reported at the highest level, so the caller sees the type it asked for.
  return success(created.map((c) => columnView(c, sheet.columns.indexOf(c), 2)), sheet.version);
}

function update(ctx: RouteContext): unknown {
  const { sheet } = requireSheet(ctx, 'ADMIN');
  const column = requireColumn(ctx, sheet);
  const outcome = updateColumn(sheet, column, bodyObject(ctx));
  if (outcome.changed.length > 0) {
    touch(ctx, sheet);
    ctx.server.mutations.record({
      operation: 'updateColumn',
      resourceType: 'column',
      resourceId: column.id,
      summary: `updated ${outcome.changed.join(', ')} of column "${column.title}" on sheet ${sheet.id}; ${outcome.convertedCells} cells converted`,
    });
    ctx.server.events.sheet(sheet, { objectType: 'column', eventType: 'updated', id: column.id });
  }
  return success(columnView(column, sheet.columns.indexOf(column), 2), sheet.version);
}

function remove(ctx: RouteContext): unknown {
  const { sheet } = requireSheet(ctx, 'ADMIN');
  const column = requireColumn(ctx, sheet);
  if (column.primary) throw ApiError.badRequest(CODES.columnCannotBeDeleted, 'The primary column cannot be deleted.');
  sheet.columns = sheet.columns.filter((c) => c !== column);
  for (const row of sheet.rows) delete row.cells[String(column.id)];
  touch(ctx, sheet);
  ctx.server.mutations.record({ operation: 'deleteColumn', resourceType: 'column', resourceId: column.id, summary: `deleted column "${column.title}" of sheet ${sheet.id}` });
  ctx.server.events.sheet(sheet, { objectType: 'column', eventType: 'deleted', id: column.id });
  return success(undefined, sheet.version);
}

export const columnRoutes: RouteDef[] = [
  { method: 'POST', path: '/sheets/:sheetId/columns', operation: 'addColumns', handle: addColumns },
  {
    method: 'GET',
    path: '/sheets/:sheetId/columns',
    operation: 'listColumns',
    handle: (ctx) => {
      const { sheet } = requireSheet(ctx, 'VIEWER');
      const lvl = level(ctx);
      const fmt = includeFormat(ctx);
      return paginate(sheet.columns, readPaging(ctx.query), (c) => columnView(c, sheet.columns.indexOf(c), lvl, fmt));
    },
  },
  {
    method: 'GET',
    path: '/sheets/:sheetId/columns/:columnId',
    operation: 'getColumn',
    handle: (ctx) => {
      const { sheet } = requireSheet(ctx, 'VIEWER');
      const column = requireColumn(ctx, sheet);
      return columnView(column, sheet.columns.indexOf(column), level(ctx), includeFormat(ctx));
    },
  },
  { method: 'PUT', path: '/sheets/:sheetId/columns/:columnId', operation: 'updateColumn', handle: update },
  { method: 'DELETE', path: '/sheets/:sheetId/columns/:columnId', operation: 'deleteColumn', handle: remove },
];
