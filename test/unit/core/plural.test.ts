import { describe, expect, it } from 'vitest';
import { plural } from '../../../src/core/plural.js';

describe('plural', () => {
  it('says 1 row, 0 rows, 2 rows and 1200 rows (digits as every other count prints them)', () => {
    expect([plural(1, 'row'), plural(0, 'row'), plural(2, 'row'), plural(1200, 'row')]).toEqual(['1 row', '0 rows', '2 rows', '1200 rows']);
  });

  it('takes the plural of a noun that is not noun + s', () => {
    expect([plural(1, 'entry', 'entries'), plural(3, 'entry', 'entries')]).toEqual(['1 entry', '3 entries']);
  });
});
