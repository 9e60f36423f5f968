import { describe, expect, it } from 'vitest';
import type { IndexResult } from '../../../src/contract/index.js';
import { iterateOffsetPages, iterateTokenPages } from '../../../src/client/paging.js';
import { OtherApiError } from '../../../src/client/api-error.js';
import { collect } from '../../helpers/collect.js';

/** A server-side list of `count` numbers, paged like docs/service.md#envelopes (or with -1 totals when `unknownTotals`). */
function pager(count: number, pageSize: number, unknownTotals = false) {
  const asked: number[] = [];
  const items = Array.from({ length: count }, (_, index) => index + 1);
  const totalPages = Math.ceil(count / pageSize);
  const fetchPage = async (page: number): Promise<IndexResult<number>> => {
    asked.push(page);
    if (unknownTotals) {
      const data = items.slice((page - 1) * pageSize, page * pageSize);
      return data.length === 0
        ? { pageNumber: 0, pageSize: 0, totalPages: 0, totalCount: 0, data }
        : { pageNumber: page, pageSize, totalPages: -1, totalCount: -1, data };
    }
    const pageNumber = Math.max(1, Math.min(page, totalPages));
    return { pageNumber, pageSize, totalPages, totalCount: count, data: items.slice((pageNumber - 1) * pageSize, pageNumber * pageSize) };
  };
  return { asked, fetchPage, items };
}

describe('iterateOffsetPages', () => {
  it('reads every page up to totalPages', async () => {
    const { asked, fetchPage, items } = pager(7, 3);
    expect(await collect(iterateOffsetPages(fetchPage, { pageSize: 3 }))).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops after one call with includeAll', async () => {
    const asked: number[] = [];
    const all = await collect(
      iterateOffsetPages(async (page) => {
        asked.push(page);
        return { pageNumber: 1, totalPages: 1, totalCount: 3, data: [1, 2, 3] };
      }, { includeAll: true }),
    );
    expect(all).toEqual([1, 2, 3]);
    expect(asked).toEqual([1]);
  });

  it('stops on an empty list', async () => {
    const { asked, fetchPage } = pager(0, 3);
    expect(await collect(iterateOffsetPages(fetchPage, { pageSize: 3 }))).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('does not repeat the last page when the service answers an earlier page than asked', async () => {
    const pages = [
      { pageNumber: 1, pageSize: 2, totalPages: 5, totalCount: 10, data: [1, 2] },
      // The list shrank meanwhile: page 2 is past the end, the last page (1) comes back.
      { pageNumber: 1, pageSize: 2, totalPages: 1, totalCount: 2, data: [1, 2] },
    ];
    const all = await collect(iterateOffsetPages(async (page) => pages[page - 1]!, { pageSize: 2 }));
    expect(all).toEqual([1, 2]);
  });

  it('reads until a short page when totals are -1 (webhook list after the sunset)', async () => {
    const { asked, fetchPage, items } = pager(7, 3, true);
    expect(await collect(iterateOffsetPages(fetchPage, { pageSize: 3 }))).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('reads until an empty page when totals are -1 and the last page is full', async () => {
    const { asked, fetchPage, items } = pager(6, 3, true);
    expect(await collect(iterateOffsetPages(fetchPage, { pageSize: 3 }))).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('keeps reading with includeAll when the service ignored it (-1 totals)', async () => {
    const { asked, fetchPage, items } = pager(5, 2, true);
    expect(await collect(iterateOffsetPages(fetchPage, { includeAll: true }))).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
  });
});

describe('iterateTokenPages', () => {
  it('follows lastKey until it is left out', async () => {
    const keys: Array<string | undefined> = [];
    const pages: Record<string, { lastKey?: string; data: number[] }> = {
      start: { lastKey: 'a', data: [1, 2] },
      a: { lastKey: 'b', data: [3, 4] },
      b: { data: [5] },
    };
    const all = await collect(
      iterateTokenPages('users.listPlans', async (lastKey) => {
        keys.push(lastKey);
        return pages[lastKey ?? 'start']!;
      }),
    );
    expect(all).toEqual([1, 2, 3, 4, 5]);
    expect(keys).toEqual([undefined, 'a', 'b']);
  });

  it('follows a key even past an empty page', async () => {
    const pages: Record<string, { lastKey?: string; data: number[] }> = { start: { lastKey: 'a', data: [] }, a: { data: [1] } };
    expect(await collect(iterateTokenPages('x', async (lastKey) => pages[lastKey ?? 'start']!))).toEqual([1]);
  });

  it('fails instead of looping when a key comes back twice', async () => {
    await expect(collect(iterateTokenPages('users.listPlans', async () => ({ lastKey: 'same', data: [1] })))).rejects.toBeInstanceOf(OtherApiError);
  });
});
