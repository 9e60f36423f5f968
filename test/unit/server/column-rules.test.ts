import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../../src/server/index.js';
import { createTestServer, type TestServer } from './sim-client.js';

describe('column rules', () => {
  let sim: TestServer;
  afterEach(async () => sim.app.close());
  const sheet = (id: number) => sim.context.state.sheets.get(id)!;
  const column = (sheetId: number, title: string) => sheet(sheetId).columns.find((c) => c.title === title)!;
  const url = (sheetId: number, title: string) => `/2.0/sheets/${sheetId}/columns/${column(sheetId, title).id}`;

  it('renames, moves and changes properties in one call (rule 1)', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Notes'), { body: { id: 1, title: 'Remarks', index: 1, width: 300 } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ title: 'Remarks', index: 1, width: 300 });
    expect(sheet(DEMO.itAssetSheetId).columns[1]?.title).toBe('Remarks');
  });

  it('refuses to change the type of the primary column (rule 2)', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Asset Tag'), { body: { type: 'DATE' } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1057]);
  });

  it('freezes Gantt column types while dependencies are on (rule 3)', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', url(DEMO.apolloSheetId, 'Start'), { body: { type: 'TEXT_NUMBER' } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1089]);
    sheet(DEMO.apolloSheetId).dependenciesEnabled = false;
    const ok = await sim.call('PUT', url(DEMO.apolloSheetId, 'Start'), { body: { type: 'TEXT_NUMBER' } });
    expect(ok.status).toBe(200);
  });

  it('converts every cell when the type changes and keeps the rows (rule 4)', async () => {
    sim = createTestServer();
    const notes = column(DEMO.itAssetSheetId, 'Notes');
    const res = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Notes'), { body: { type: 'CHECKBOX' } });
    expect(res.status).toBe(200);
    const rows = sheet(DEMO.itAssetSheetId).rows;
    expect(rows).toHaveLength(20);
    const values = rows.slice(0, 4).map((r) => r.cells[String(notes.id)]);
    expect(values).toEqual(['Laptop', true, true, 'Monitor']);
  });

  it('converts text to contacts and dates', async () => {
    sim = createTestServer();
    const owner = column(DEMO.itAssetSheetId, 'Owner');
    await sim.call('PUT', url(DEMO.itAssetSheetId, 'Owner'), { body: { type: 'TEXT_NUMBER' } });
    expect(sheet(DEMO.itAssetSheetId).rows[0]?.cells[String(owner.id)]).toBe('dana.whitfield@acme.example');
    await sim.call('PUT', url(DEMO.itAssetSheetId, 'Owner'), { body: { type: 'CONTACT_LIST' } });
    expect(sheet(DEMO.itAssetSheetId).rows[0]?.cells[String(owner.id)]).toEqual({ email: 'dana.whitfield@acme.example' });
  });

  it('needs type when changing dropdown values (rule 5, 1090)', async () => {
    sim = createTestServer();
    const res = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Status'), { body: { options: ['A', 'B'] } });
    expect([res.status, res.body.errorCode]).toEqual([400, 1090]);
    const ok = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Status'), { body: { type: 'PICKLIST', options: ['A', 'B'] } });
    expect(ok.body.result).toMatchObject({ options: ['A', 'B'] });
  });

  it('refuses attribute values of the wrong type (1031) and keeps serving the columns', async () => {
    sim = createTestServer();
    const listUrl = `/2.0/sheets/${DEMO.itAssetSheetId}/columns`;
    const bad = await sim.call('PUT', url(DEMO.itAssetSheetId, 'Status'), { body: { type: 'PICKLIST', options: 5 } });
    expect([bad.status, bad.body.errorCode]).toEqual([400, 1031]);
    const added = await sim.call('POST', listUrl, { body: { title: 'Approver', type: 'CONTACT_LIST', index: 1, contactOptions: 'x' } });
    expect([added.status, added.body.errorCode]).toEqual([400, 1031]);
    expect((await sim.call('GET', listUrl)).status).toBe(200);
    expect(column(DEMO.itAssetSheetId, 'Status').options).toEqual(['In use', 'Spare', 'Retired']);
  });

  it('reports MULTI_* columns as TEXT_NUMBER below their level', async () => {
    sim = createTestServer();
    const types = async (query: string) => {
      const res = await sim.call('GET', `/sheets/${DEMO.apolloSheetId}/columns${query}`);
      const data = res.body.data as { title: string; type: string }[];
      return ['Labels', 'Reviewers'].map((t) => data.find((c) => c.title === t)?.type);
    };
    expect(await types('')).toEqual(['TEXT_NUMBER', 'TEXT_NUMBER']);
    expect(await types('?level=1')).toEqual(['TEXT_NUMBER', 'MULTI_CONTACT_LIST']);
    expect(await types('?level=2')).toEqual(['MULTI_PICKLIST', 'MULTI_CONTACT_LIST']);
  });

  it('adds columns at one index and refuses duplicate titles', async () => {
    sim = createTestServer();
    const path = `/sheets/${DEMO.itAssetSheetId}/Columns`;
    const res = await sim.call('POST', path, { body: [{ title: 'Cost', type: 'TEXT_NUMBER', index: 2 }, { title: 'Vendor', type: 'TEXT_NUMBER', index: 2 }] });
    expect(res.status).toBe(200);
    expect(sheet(DEMO.itAssetSheetId).columns.map((c) => c.title).slice(2, 4)).toEqual(['Cost', 'Vendor']);
    const dup = await sim.call('POST', path, { body: [{ title: 'Cost', type: 'TEXT_NUMBER', index: 0 }] });
    expect([dup.status, dup.body.errorCode]).toEqual([400, 1056]);
  });

  it('deletes a column with its cells and refuses the primary', async () => {
    sim = createTestServer();
    const notes = column(DEMO.itAssetSheetId, 'Notes');
    expect((await sim.call('DELETE', url(DEMO.itAssetSheetId, 'Notes'))).status).toBe(200);
    expect(sheet(DEMO.itAssetSheetId).rows.every((r) => r.cells[String(notes.id)] === undefined)).toBe(true);
    const res = await sim.call('DELETE', url(DEMO.itAssetSheetId, 'Asset Tag'));
    expect(res.body.errorCode).toBe(1065);
  });

  it('answers an empty list for a sheet without columns', async () => {
    sim = createTestServer();
    sheet(DEMO.itAssetSheetId).columns = [];
    const res = await sim.call('GET', `/sheets/${DEMO.itAssetSheetId}/columns`);
    expect(res.body).toMatchObject({ totalCount: 0, data: [] });
  });
});
