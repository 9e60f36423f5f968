import { describe, expect, it } from 'vitest';
import { firstRows, RowStore } from '../../../src/manifest/row-store.js';

/** Rows of every shape a plan row has: nested objects, lists, numbers beyond 32 bits, text JSON must escape. */
const rowOf = (i: number) => ({
  row: i + 1,
  line: i + 2,
  action: { action: 'remove', user: { userId: 2 ** 40 + i }, transferTo: { email: `heir.${i % 7}@acme.example` } },
  verdict: i % 3 === 0 ? 'change' : 'not-found',
  reason: `line one\nline "two" \u2028 ${'é'.repeat(i % 5)} \ud800 ${i % 11 === 0 ? '\u0000\u001b[2J' : ''}`,
  target: i % 2 === 0 ? {} : { userId: i, upload: { relative: 'a/b.png', size: i * 1000, detectedType: 'image/png' } },
  problems: i % 13 === 0 ? [{ row: i + 1, line: i + 2, field: 'email', message: 'x' }] : undefined,
});

describe('RowStore', () => {
  // A small chunk size makes 5,000 rows fill a few hundred compressed chunks.
  const rows = Array.from({ length: 5_000 }, (_, i) => rowOf(i));
  const json = rows.map((row) => JSON.parse(JSON.stringify(row)) as unknown);
  const store = RowStore.of(rows, { chunkChars: 4096 });

  it('gives back every row as JSON would, in order, across chunks and the rows not yet in one', () => {
    expect(store.length).toBe(rows.length);
    expect([...store]).toEqual(json);
    expect(JSON.stringify(store)).toBe(JSON.stringify(rows));
    expect([...store.lines()]).toEqual(rows.map((row) => JSON.stringify(row)));
  });

  it('reads any row by its position, backwards and at random as in order, and nothing past either end', () => {
    for (const index of [0, 1, 4_999, 2_500, 17, 4_998, 3, 4_000, 0]) expect(store.at(index)).toEqual(json[index]);
    expect(store.at(-1)).toEqual(json[4_999]);
    expect(store.at(-5_000)).toEqual(json[0]);
    for (const outside of [5_000, -5_001, 1.5, Number.NaN]) expect(store.at(outside)).toBeUndefined();
    expect(firstRows(store, 3)).toEqual(json.slice(0, 3));
    expect(firstRows(store, 0)).toEqual([]);
  });

  it('keeps a million-row plan in a small part of the bytes of its JSON', () => {
    const big = new RowStore<ReturnType<typeof rowOf>>();
    let chars = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const row = rowOf(i);
      chars += JSON.stringify(row).length;
      big.append(row);
    }
    const stored = big.toStored().chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    expect(stored).toBeLessThan(chars / 4);
    expect(big.at(12_345)).toEqual(JSON.parse(JSON.stringify(rowOf(12_345))));
  });

  it('crosses to another thread as plain data and comes back the same rows', () => {
    const stored = structuredClone(store.toStored());
    const back = RowStore.fromStored<ReturnType<typeof rowOf>>(stored, { chunkChars: 4096 });
    expect([...back]).toEqual(json);
    back.append(rowOf(5_000));
    expect(back.at(5_000)).toEqual(JSON.parse(JSON.stringify(rowOf(5_000))));
  });

  it('is empty until a row is appended, and writes as []', () => {
    const empty = new RowStore<number>();
    expect([...empty]).toEqual([]);
    expect(empty.at(0)).toBeUndefined();
    expect(JSON.stringify({ rows: empty })).toBe('{"rows":[]}');
  });
});
