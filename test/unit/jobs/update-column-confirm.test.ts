import { describe, expect, it } from 'vitest';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { Column } from '../../../src/contract/index.js';
import { updateColumnJob } from '../../../jobs/update-column.js';
import { contextFor } from './job-fixtures.js';

/** An API whose one column reads as `column`. */
function apiWith(column: Partial<Column>): SmartsheetApi {
  return { columns: { get: async () => ({ id: 7, index: 2, title: 'Owner', type: 'TEXT_NUMBER', ...column }) } } as unknown as SmartsheetApi;
}

const row = { action: 'update-column', sheetId: 1, columnId: 7, width: 240 } as const;
/** What the row kept just before its first change: the column 150 wide. */
const found = { columnId: 7, type: 'TEXT_NUMBER', width: 150 };

describe('update-column confirm after a lost answer', () => {
  it('says done when the column has the change, not-done when it is as the row found it', async () => {
    expect(await updateColumnJob.confirm(contextFor(apiWith({ width: 240 }), row, { columnId: 7 }), found)).toBe('done');
    expect(await updateColumnJob.confirm(contextFor(apiWith({ width: 150 }), row, { columnId: 7 }), found)).toBe('not-done');
  });

  it('says changed-since when the column is neither: someone else changed it, and sending the row again would undo that', async () => {
    expect(await updateColumnJob.confirm(contextFor(apiWith({ width: 320 }), row, { columnId: 7 }), found)).toBe('changed-since');
  });

  it('says not-done when the row kept nothing to tell by, as before', async () => {
    expect(await updateColumnJob.confirm(contextFor(apiWith({ width: 320 }), row, { columnId: 7 }))).toBe('not-done');
    expect(await updateColumnJob.confirm(contextFor(apiWith({ width: 320 }), row, { columnId: 7 }), { columnId: 7, type: 'TEXT_NUMBER' })).toBe('not-done');
  });
});
