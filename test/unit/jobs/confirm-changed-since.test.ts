import { describe, expect, it } from 'vitest';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { Column } from '../../../src/contract/index.js';
import { updateColumnJob } from '../../../jobs/update-column.js';
import { updateUserJob } from '../../../jobs/update-user.js';
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

describe('update (a profile) confirm after a lost answer', () => {
  const update = { action: 'update', user: { email: 'marcus.chen@acme.example' }, firstName: 'Marc', admin: true } as const;
  /** The row found "Marcus", no admin. */
  const foundProfile = { firstName: 'Marcus', admin: false };
  const userApi = (user: Record<string, unknown>) => ({ users: { get: async () => ({ id: 5, email: 'marcus.chen@acme.example', ...user }) } }) as unknown as SmartsheetApi;

  it('says done, not-done or changed-since as the profile reads against the change and what the row found', async () => {
    const context = (user: Record<string, unknown>) => contextFor(userApi(user), update, { userId: 5 });
    expect(await updateUserJob.confirm(context({ firstName: 'Marc', admin: true }), foundProfile)).toBe('done');
    expect(await updateUserJob.confirm(context({ firstName: 'Marcus' }), foundProfile)).toBe('not-done');
    // Half landed (admin set, name as found) is not someone else's change.
    expect(await updateUserJob.confirm(context({ firstName: 'Marcus', admin: true }), foundProfile)).toBe('not-done');
    expect(await updateUserJob.confirm(context({ firstName: 'Marco' }), foundProfile)).toBe('changed-since');
    expect(await updateUserJob.confirm(context({ firstName: 'Marco' }))).toBe('not-done');
  });
});
