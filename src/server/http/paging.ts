import type { IndexResult } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from './api-error.js';
import { queryBool, queryInt, type Query } from './query.js';

export interface PageRequest {
  page: number;
  pageSize: number;
  includeAll: boolean;
}

export const DEFAULT_PAGE_SIZE = 100;

export function readPaging(query: Query): PageRequest {
  const page = Math.max(1, queryInt(query, 'page') ?? 1);
  const pageSize = Math.max(1, queryInt(query, 'pageSize') ?? DEFAULT_PAGE_SIZE);
  return { page, pageSize, includeAll: queryBool(query, 'includeAll') ?? false };
}

/**
 * Paging of a list with a page-size cap (GET /users, docs/service.md#paging-list-users): a pageSize above the cap is
 * refused 400/1229, and includeAll is answered as page 1 of `cap` items, not as everything.
 */
export function readCappedPaging(query: Query, cap: number): PageRequest {
  const request = readPaging(query);
  if (request.pageSize > cap) {
    throw ApiError.badRequest(CODES.pageSizeTooLarge, `The value ${request.pageSize} of pageSize is above the maximum of ${cap}.`);
  }
  return request.includeAll ? { page: 1, pageSize: cap, includeAll: false } : request;
}

/**
 * Offset paging (docs/service.md#envelopes): a page past the end answers the last page with its number; includeAll
 * answers everything and leaves pageSize out.
 */
export function paginate<T, R>(items: readonly T[], request: PageRequest, view: (item: T) => R): IndexResult<R> {
  const totalCount = items.length;
  if (request.includeAll) {
    return { pageNumber: 1, totalPages: totalCount === 0 ? 0 : 1, totalCount, data: items.map(view) };
  }
  const totalPages = Math.ceil(totalCount / request.pageSize);
  const pageNumber = totalPages === 0 ? 1 : Math.min(request.page, totalPages);
  const start = (pageNumber - 1) * request.pageSize;
  return {
    pageNumber,
    pageSize: request.pageSize,
    totalPages,
    totalCount,
    data: items.slice(start, start + request.pageSize).map(view),
  };
}
