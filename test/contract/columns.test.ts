import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/client/api-error.js';
import { collect } from '../helpers/collect.js';
import { useContractServer } from '../helpers/contract-server.js';

const IT_ASSETS = 2094857361029384;
const APOLLO = 2094857361029385;

const server = useContractServer();

describe('columns (contract)', () => {
  it('adds a list of columns', async () => {
    const added = await server().admin.columns.add(IT_ASSETS, [
      { title: 'Serial', type: 'TEXT_NUMBER', index: 5 },
      { title: 'Returned', type: 'CHECKBOX', index: 5 },
    ]);
    expect(added.map((column) => column.title)).toEqual(['Serial', 'Returned']);
  });

  it('lists columns over pages of two', async () => {
    const all = await collect(server().admin.columns.list(IT_ASSETS, { pageSize: 2 }));
    expect(all.map((column) => column.title)).toEqual(['Asset Tag', 'Owner', 'Status', 'Purchased', 'Notes']);
  });

  it('reports MULTI_* columns as TEXT_NUMBER without level, and as themselves with level 2', async () => {
    const plain = (await server().admin.columns.listPage(APOLLO, { includeAll: true })).data.find((column) => column.title === 'Labels');
    expect(plain?.type).toBe('TEXT_NUMBER');
    const leveled = (await server().admin.columns.listPage(APOLLO, { includeAll: true, level: 2 })).data.find((column) => column.title === 'Labels');
    expect(leveled?.type).toBe('MULTI_PICKLIST');
    expect((await server().admin.columns.get(APOLLO, leveled!.id, { level: 2 })).type).toBe('MULTI_PICKLIST');
  });

  it('gets a column with include=format', async () => {
    const [first] = (await server().admin.columns.listPage(IT_ASSETS)).data;
    expect(await server().admin.columns.get(IT_ASSETS, first!.id, { include: ['format'] })).toMatchObject({ id: first!.id, title: 'Asset Tag', primary: true });
  });

  it('updates a column with PUT: rename, move and change type', async () => {
    const notes = (await server().admin.columns.listPage(IT_ASSETS)).data.find((column) => column.title === 'Notes')!;
    const updated = await server().admin.columns.update(IT_ASSETS, notes.id, { title: 'Remarks', index: 1, type: 'PICKLIST', options: ['Laptop', 'Monitor'] });
    expect(updated).toMatchObject({ id: notes.id, title: 'Remarks', index: 1, type: 'PICKLIST' });
  });

  it('refuses to change the type of the primary column', async () => {
    const primary = (await server().admin.columns.listPage(IT_ASSETS)).data.find((column) => column.primary === true)!;
    await expect(server().admin.columns.update(IT_ASSETS, primary.id, { type: 'DATE' })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('deletes a column', async () => {
    const notes = (await server().admin.columns.listPage(IT_ASSETS)).data.find((column) => column.title === 'Notes')!;
    await server().admin.columns.delete(IT_ASSETS, notes.id);
    expect((await server().admin.columns.listPage(IT_ASSETS)).data.map((column) => column.title)).not.toContain('Notes');
  });
});
