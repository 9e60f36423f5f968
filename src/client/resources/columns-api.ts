import { z } from 'zod';
import { columnCreateSchema, columnSchema, columnUpdateSchema } from '../../contract/index.js';
import { optionalPositiveInt, pathOf, requireId, requireNonEmptyList, requireValid } from '../arguments.js';
import { invalidArgument } from '../error-factory.js';
import { readBare, readDone, readIndexResult, readResultList, readResultObject } from '../envelope-readers.js';
import { iterateOffsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type { ColumnsApi } from '../smartsheet-api.js';

const readColumnPage = readIndexResult(columnSchema);

function checkLevel(operation: string, level: number | undefined): number | undefined {
  if (level !== undefined && (!Number.isInteger(level) || level < 0)) throw invalidArgument(operation, `level must be 0, 1 or 2, got ${String(level)}`);
  return level;
}

export function createColumnsApi(transport: Transport): ColumnsApi {
  const api: ColumnsApi = {
    async add(sheetId, columns, options = {}) {
      const operation = 'columns.add';
      const id = requireId(operation, 'sheetId', sheetId);
      const json = requireValid(operation, 'columns', z.array(columnCreateSchema), requireNonEmptyList(operation, 'columns', columns));
      return transport.send(
        { operation, method: 'POST', path: pathOf('sheets', id, 'columns'), json, signal: options.signal },
        readResultList(columnSchema),
      );
    },

    async get(sheetId, columnId, options = {}) {
      const operation = 'columns.get';
      const path = pathOf('sheets', requireId(operation, 'sheetId', sheetId), 'columns', requireId(operation, 'columnId', columnId));
      return transport.send(
        { operation, method: 'GET', path, query: { include: options.include, level: checkLevel(operation, options.level) }, signal: options.signal },
        readBare(columnSchema),
      );
    },

    async listPage(sheetId, options = {}) {
      const operation = 'columns.list';
      const id = requireId(operation, 'sheetId', sheetId);
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('sheets', id, 'columns'),
          query: {
            include: options.include,
            level: checkLevel(operation, options.level),
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize: optionalPositiveInt(operation, 'pageSize', options.pageSize),
            includeAll: options.includeAll,
          },
          signal: options.signal,
        },
        readColumnPage,
      );
    },

    list(sheetId, options = {}) {
      return iterateOffsetPages((page) => api.listPage(sheetId, { ...options, page }), options);
    },

    async update(sheetId, columnId, changes, options = {}) {
      const operation = 'columns.update';
      const path = pathOf('sheets', requireId(operation, 'sheetId', sheetId), 'columns', requireId(operation, 'columnId', columnId));
      const json = requireValid(operation, 'changes', columnUpdateSchema, changes);
      if (Object.keys(json).length === 0) throw invalidArgument(operation, 'changes must name at least one field');
      return transport.send({ operation, method: 'PUT', path, json, signal: options.signal }, readResultObject(columnSchema));
    },

    async delete(sheetId, columnId, options = {}) {
      const operation = 'columns.delete';
      const path = pathOf('sheets', requireId(operation, 'sheetId', sheetId), 'columns', requireId(operation, 'columnId', columnId));
      return transport.send({ operation, method: 'DELETE', path, signal: options.signal }, readDone);
    },
  };
  return api;
}
