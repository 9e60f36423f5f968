import { sheetSummarySchema } from '../../contract/index.js';
import { optionalPositiveInt, pathOf } from '../arguments.js';
import { readIndexResult } from '../envelope-readers.js';
import { iterateOffsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type { SheetsApi } from '../smartsheet-api.js';

const readSheetPage = readIndexResult(sheetSummarySchema);

/** GET /sheets: only to find a sheet's id by name (the other sheet endpoints are outside docs/service.md#operations). */
export function createSheetsApi(transport: Transport): SheetsApi {
  const api: SheetsApi = {
    async listPage(options = {}) {
      const operation = 'sheets.list';
      return transport.send(
        {
          operation,
          method: 'GET',
          path: pathOf('sheets'),
          query: {
            page: optionalPositiveInt(operation, 'page', options.page),
            pageSize: optionalPositiveInt(operation, 'pageSize', options.pageSize),
            includeAll: options.includeAll,
            include: options.includeOwnerInfo === true ? ['ownerInfo'] : undefined,
          },
          signal: options.signal,
        },
        readSheetPage,
      );
    },

    list(options = {}) {
      return iterateOffsetPages((page) => api.listPage({ ...options, page }), options);
    },
  };
  return api;
}
