import { describe, expect, it } from 'vitest';
import { addColumnJob } from '../../../jobs/add-column.js';
import { deleteColumnJob } from '../../../jobs/delete-column.js';
import { columnHas, updateColumnJob } from '../../../jobs/update-column.js';
import { ResourceNotFoundError } from '../../../src/client/api-error.js';
import type { Column } from '../../../src/contract/index.js';
import { IDS, SHEET, contextFor, createDemoFake } from './job-fixtures.js';

const columnsOf = (fake: ReturnType<typeof createDemoFake>) => fake.state.sheets.get(SHEET)!.columns;

describe('addColumnJob', () => {
  const row = { action: 'add-column', sheetId: String(SHEET), title: 'Location', type: 'TEXT_NUMBER', index: '1' } as const;

  it('reports the new column id', async () => {
    const fake = createDemoFake();
    const result = await addColumnJob.run(contextFor(fake.api, row));
    expect(result.detail).toEqual({ sheetId: SHEET, columnId: columnsOf(fake).find((c) => c.title === 'Location')?.id });
  });

  it('never adds a second column on a retry whose first attempt went through', async () => {
    const fake = createDemoFake();
    await addColumnJob.run(contextFor(fake.api, row));
    const retry = contextFor(fake.api, row, {}, { previousAttemptUncertain: true });
    expect(await addColumnJob.confirm(retry)).toBe('done');
    expect(columnsOf(fake).filter((c) => c.title === 'Location')).toHaveLength(1);
  });

  it('confirms changed-since, not not-done, when its column may have been renamed since: a column new since the first attempt, without the title', async () => {
    // Soak seed 6643: the add landed and its answer was lost; a later migration renamed the column before the confirm,
    // which found no column of the title and sent the add again: the sheet got a second column.
    const fake = createDemoFake();
    const before = await addColumnJob.readBefore!(contextFor(fake.api, row));
    await addColumnJob.run(contextFor(fake.api, row));
    const added = columnsOf(fake).find((c) => c.title === 'Location')!;
    added.title = 'Location (renamed)';
    const retry = contextFor(fake.api, row, {}, { previousAttemptUncertain: true });
    expect(await addColumnJob.confirm(retry, JSON.parse(JSON.stringify(before)))).toBe('changed-since');
    // Without the columns before, or with none new since, it stays not-done.
    expect(await addColumnJob.confirm(retry)).toBe('not-done');
    expect(await addColumnJob.confirm(retry, { columnIds: columnsOf(fake).map((c) => c.id) })).toBe('not-done');
  });

  it('confirms not-done for a title that differs only in case', async () => {
    const fake = createDemoFake();
    expect(await addColumnJob.confirm(contextFor(fake.api, { ...row, title: 'notes' }))).toBe('not-done');
  });
});

describe('updateColumnJob', () => {
  it('finds the column by its new title on a retry after the rename went through', async () => {
    const fake = createDemoFake();
    const row = { action: 'update-column', sheetId: SHEET, columnTitle: 'Notes', title: 'Comments' } as const;
    await updateColumnJob.run(contextFor(fake.api, row));
    expect(await updateColumnJob.confirm(contextFor(fake.api, row))).toBe('done');
  });

  it('fails with not found when no column has the title', async () => {
    const fake = createDemoFake();
    const run = updateColumnJob.run(contextFor(fake.api, { action: 'update-column', sheetId: SHEET, columnTitle: 'Nope', width: 10 }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('asks for the column at level 2, so MULTI_* types compare as themselves', async () => {
    const fake = createDemoFake();
    let level: number | undefined;
    const get = fake.api.columns.get;
    Object.assign(fake.api.columns, {
      get: (sheetId: number, columnId: number, options?: { level?: number }) => {
        level = options?.level;
        return get(sheetId, columnId, options);
      },
    });
    await updateColumnJob.confirm(contextFor(fake.api, { action: 'update-column', sheetId: SHEET, columnId: IDS.notes, type: 'MULTI_PICKLIST', options: 'a|b' }));
    expect(level).toBe(2);
  });
});

describe('columnHas', () => {
  const column: Column = { id: 1, index: 1, title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare'] };

  it('compares options in order', () => {
    expect(columnHas({ ...column, options: ['In use', 'Spare'] }, { options: ['In use', 'Spare'] })).toBe(true);
    expect(columnHas({ ...column, options: ['In use', 'Spare'] }, { options: ['Spare', 'In use'] })).toBe(false);
    expect(columnHas({ ...column, options: ['In use'] }, { options: ['In use', 'Spare'] })).toBe(false);
  });

  it('reads an absent hidden, locked or validation as false, and other absent fields as different', () => {
    expect(columnHas({ ...column }, { hidden: false, locked: false, validation: false })).toBe(true);
    expect(columnHas({ ...column }, { hidden: true })).toBe(false);
    expect(columnHas({ ...column }, { description: '' })).toBe(false);
  });
});

describe('deleteColumnJob', () => {
  const row = { action: 'delete-column', sheetId: SHEET, columnTitle: 'Notes' } as const;

  it('confirms done by title when no id is known and no column has it', async () => {
    const fake = createDemoFake();
    expect(await deleteColumnJob.confirm(contextFor(fake.api, { ...row, columnTitle: 'Nope' }))).toBe('done');
  });

  it('answers unchanged when the delete finds the column already gone', async () => {
    const fake = createDemoFake();
    fake.state.sheets.get(SHEET)!.columns = columnsOf(fake).filter((c) => c.id !== IDS.notes);
    const result = await deleteColumnJob.run(contextFor(fake.api, row, { sheetId: SHEET, columnId: IDS.notes }));
    expect(result).toEqual({ outcome: 'unchanged', detail: { sheetId: SHEET, columnId: IDS.notes, alreadyGone: true } });
  });

  it('answers succeeded when the column is gone after an attempt of this row whose answer was lost: that request landed late', async () => {
    const fake = createDemoFake();
    fake.state.sheets.get(SHEET)!.columns = columnsOf(fake).filter((c) => c.id !== IDS.notes);
    const retry = contextFor(fake.api, row, { sheetId: SHEET, columnId: IDS.notes }, { previousAttemptUncertain: true });
    expect(await deleteColumnJob.run(retry)).toEqual({ outcome: 'succeeded', message: 'done by this batch (confirmed after a lost answer)', detail: { sheetId: SHEET, columnId: IDS.notes } });
  });

  it('fails with not found when the sheet is gone, not unchanged', async () => {
    const fake = createDemoFake();
    fake.state.sheets.delete(SHEET);
    const run = deleteColumnJob.run(contextFor(fake.api, row, { sheetId: SHEET, columnId: IDS.notes }));
    await expect(run).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});
