import type { IndexResult, TokenPage } from '../contract/index.js';
import { OtherApiError } from './api-error.js';

/** The service's page size when none is asked for (docs/service.md#envelopes). */
const DEFAULT_PAGE_SIZE = 100;

/**
 * Every item of an offset-paged list. Stops at `totalPages`, after an includeAll answer, at an empty page, or when
 * the service answers an earlier page than asked (a page past the end returns the last one, docs/service.md#envelopes).
 * With unknown totals (-1, the webhook list after its sunset) it reads on until a short or empty page.
 */
export async function* iterateOffsetPages<T>(
  fetchPage: (page: number) => Promise<IndexResult<T>>,
  options: { pageSize?: number | undefined; includeAll?: boolean | undefined },
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page += 1) {
    const result = await fetchPage(page);
    // An earlier page than asked is one already read (the list shrank meanwhile): do not yield it twice.
    if (result.totalPages >= 0 && result.pageNumber < page) return;
    yield* result.data;
    if (result.data.length === 0) return;
    if (result.totalPages >= 0) {
      if (options.includeAll === true || result.pageNumber >= result.totalPages) return;
    } else if (result.data.length < (result.pageSize ?? options.pageSize ?? DEFAULT_PAGE_SIZE)) {
      return;
    }
  }
}

/** Every item of a token-paged list: follows `lastKey` until the service leaves it out. */
export async function* iterateTokenPages<T>(
  operation: string,
  fetchPage: (lastKey: string | undefined) => Promise<TokenPage<T>>,
): AsyncGenerator<T, void, undefined> {
  let lastKey: string | undefined;
  const seen = new Set<string>();
  do {
    const result = await fetchPage(lastKey);
    yield* result.data;
    lastKey = result.lastKey === '' ? undefined : result.lastKey;
    // A key handed back twice would loop forever.
    if (lastKey !== undefined) {
      if (seen.has(lastKey)) {
        throw new OtherApiError({ operation, method: 'GET', message: `${operation}: the service returned the same lastKey twice; stopping` });
      }
      seen.add(lastKey);
    }
  } while (lastKey !== undefined);
}
