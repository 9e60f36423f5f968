import { describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { columnSpecSchema } from '../../src/migrate/column-spec.js';
import { planColumnMigration } from '../../src/migrate/plan-column-migration.js';
import type { Fixture } from '../../src/server/demo/fixture-schema.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import type { BatchHarness } from '../helpers/batch-harness.js';

const GUARDRAILS = { destructiveMaxCount: 1e6, destructiveMaxShare: 1 };
const ADMIN = 'columns-admin-token';
const batches = useBatchHarnesses();

type SheetInput = NonNullable<Fixture['sheets']>[number];

/**
 * 20 sheets of an asset register, as offices made them over the years: most with Status and Owner typed as text,
 * Notes where the standard says Comments, some without Assigned On; one whose primary column is Status; one project
 * sheet with dependencies on whose Owner is its Gantt resource column.
 */
function registerSheets(): SheetInput[] {
  const sheets: SheetInput[] = [];
  for (let i = 1; i <= 18; i += 1) {
    sheets.push({
      name: `Assets office ${i}`,
      ownerEmail: 'it@globex.example',
      columns: [
        { title: 'Asset', type: 'TEXT_NUMBER', primary: true },
        { title: 'Status', type: 'TEXT_NUMBER' },
        { title: 'Owner', type: 'TEXT_NUMBER' },
        { title: i % 3 === 0 ? 'Comments' : 'Notes', type: 'TEXT_NUMBER' },
        ...(i % 2 === 0 ? [{ title: 'Assigned On', type: 'DATE' as const }] : []),
      ],
      rows: [
        { Asset: `LT-${i}01`, Status: 'In use', Owner: `person.${i}@globex.example`, Notes: 'dock', Comments: 'dock' },
        { Asset: `LT-${i}02`, Status: 'Spare', Owner: '', Notes: 'box', Comments: 'box' },
      ],
    });
  }
  sheets.push({
    name: 'Assets HQ (Status first)',
    ownerEmail: 'it@globex.example',
    columns: [
      { title: 'Status', type: 'TEXT_NUMBER', primary: true },
      { title: 'Owner', type: 'TEXT_NUMBER' },
      { title: 'Notes', type: 'TEXT_NUMBER' },
    ],
    rows: [{ Status: 'In use', Owner: 'hq@globex.example', Notes: 'lobby' }],
  });
  sheets.push({
    name: 'Office move (project)',
    ownerEmail: 'it@globex.example',
    dependenciesEnabled: true,
    columns: [
      { title: 'Task', type: 'TEXT_NUMBER', primary: true },
      { title: 'Start', type: 'DATE', tags: ['GANTT_START_DATE'] },
      { title: 'Predecessors', type: 'PREDECESSOR', tags: ['GANTT_PREDECESSOR'] },
      { title: 'Owner', type: 'TEXT_NUMBER', tags: ['GANTT_ASSIGNED_RESOURCE'] },
      { title: 'Status', type: 'TEXT_NUMBER' },
    ],
    rows: [{ Task: 'Pack', Start: '2026-12-01', Owner: 'mover@globex.example', Status: 'Spare' }],
  });
  return sheets;
}

const fixture: Fixture = {
  organization: { name: 'Globex' },
  plans: [{ id: 6000000000000001, name: 'Globex', domains: ['globex.example'] }],
  users: [{ email: 'it@globex.example', firstName: 'It', lastName: 'Admin', admin: true, licensedSheetCreator: true }],
  tokens: [{ token: ADMIN, userEmail: 'it@globex.example' }],
  sheets: registerSheets(),
};

const spec = columnSpecSchema.parse({
  columns: [
    { title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare', 'In repair', 'Retired'] },
    { title: 'Owner', type: 'CONTACT_LIST' },
    { title: 'Comments', type: 'TEXT_NUMBER', formerTitles: ['Notes'] },
    { title: 'Assigned On', type: 'DATE', index: 1 },
  ],
});

// As `seatflow migrate` plans it: at now on the service's clock (the reference server's), so the rows carry what it read.
const plan = (h: BatchHarness, sheetIds: number[]) => planColumnMigration({ api: h.api, sheetIds, spec, sheetsFile: 'sheets.txt', specFile: 'columns.json', guardrails: GUARDRAILS, nowMs: h.server.context.clock.now() });
const lastSeq = (h: BatchHarness) => h.server.requests.list().at(-1)?.seq ?? 0;

describe('seatflow migrate columns, against the reference server', { timeout: 180_000 }, () => {
  it('over 20 sheets (a Status primary column, a Gantt sheet with dependencies) converts exactly what the plan said; revert and re-run', async () => {
    const h = await batches.open({ rateLimit: 'off', data: fixture, adminToken: ADMIN });
    const state = h.server.context.state;
    const sheetIds = [...state.sheets.values()].map((sheet) => sheet.id);
    expect(sheetIds).toHaveLength(20);
    const sheetNamed = (name: string) => [...state.sheets.values()].find((sheet) => sheet.name === name)!;
    const hq = sheetNamed('Assets HQ (Status first)');
    const project = sheetNamed('Office move (project)');

    const planned = await plan(h, sheetIds);
    const rows = Array.from(planned.plan.rows);
    const rowOf = (sheetId: number, title: string) => rows.find((row) => row.action !== undefined && 'sheetId' in row.action && row.action.sheetId === sheetId && row.target.columnId === state.sheets.get(sheetId)?.columns.find((c) => c.title === title)?.id);
    // The update-column rules, foreseen: the primary column's type never changes; a Gantt column keeps its type.
    expect(rowOf(hq.id, 'Status')).toMatchObject({ verdict: 'refused', rule: 'primary-column' });
    expect(rowOf(project.id, 'Owner')).toMatchObject({ verdict: 'refused', rule: 'gantt-column-with-dependencies' });
    expect(rowOf(project.id, 'Status')).toMatchObject({ verdict: 'change' });
    // Which columns' cells are converted: Status and Owner everywhere but those two.
    const expectedConversions = sheetIds.flatMap((sheetId) =>
      ['Status', 'Owner'].flatMap((title) => {
        if ((sheetId === hq.id && title === 'Status') || (sheetId === project.id && title === 'Owner')) return [];
        const column = state.sheets.get(sheetId)!.columns.find((c) => c.title === title)!;
        return [column.id];
      }),
    );
    expect(new Set(planned.conversions.map((each) => each.columnId))).toEqual(new Set(expectedConversions));
    // Notes renamed Comments on the 12 offices that have Notes and on HQ; missing columns added (at 1, which every sheet has).
    const renames = rows.filter((row) => row.action?.action === 'update-column' && 'title' in row.action && row.action.title === 'Comments');
    expect(renames).toHaveLength(12 + 1);
    const adds = rows.filter((row) => row.action?.action === 'add-column');
    expect(adds.map((row) => row.verdict)).toEqual(adds.map(() => 'change'));
    // Assigned On on the 9 odd offices, HQ and the project; Comments on the project.
    expect(adds).toHaveLength(9 + 2 + 1);

    const before = (await h.mutations()).length;
    const since = lastSeq(h);
    h.startWorkers();
    const submitted = await h.system.submit(planned.plan);
    const finished = await h.waitForState(submitted.batch.id, ['finished'], 120_000);
    expect(finished.counts).toMatchObject({ failed: 0 });
    // The plan's listing stands in for each update's read of its column (for revert): not one column read again.
    const updates = rows.filter((row) => row.verdict === 'change' && row.action?.action === 'update-column');
    expect(updates.every((row) => row.target.readAtPlan !== undefined)).toBe(true);
    expect(h.server.requests.list({ afterSeq: since, operation: 'getColumn' })).toHaveLength(0);
    expect(h.server.requests.list({ afterSeq: since, operation: 'updateColumn' })).toHaveLength(updates.length);
    const mutations = (await h.mutations()).slice(before);
    // Each planned change once, nothing else: one mutation per change row.
    expect(mutations).toHaveLength(planned.plan.summary.change);
    const typeChanges = mutations.filter((m) => m.operation === 'updateColumn' && /updated [^;]*\btype\b/.test(m.summary));
    expect(new Set(typeChanges.map((m) => m.resourceId))).toEqual(new Set(expectedConversions));
    expect(typeChanges).toHaveLength(expectedConversions.length);
    // The cells were converted, and the refused columns were not touched.
    const office1 = sheetNamed('Assets office 1');
    const owner1 = office1.columns.find((c) => c.title === 'Owner')!;
    expect(owner1.type).toBe('CONTACT_LIST');
    expect(office1.rows[0]?.cells[String(owner1.id)]).toEqual({ email: 'person.1@globex.example' });
    expect(hq.columns.find((c) => c.title === 'Status')?.type).toBe('TEXT_NUMBER');
    expect(project.columns.find((c) => c.title === 'Owner')?.type).toBe('TEXT_NUMBER');

    // Re-running changes nothing: every sheet already matches, but for the two the service would refuse.
    const again = await plan(h, sheetIds);
    expect(again.plan.summary).toMatchObject({ change: 0, refused: 2 });
    expect(again.conversions).toEqual([]);

    // The revert restores each column's title, type and options, and deletes the added ones.
    const revert = await planRevert({ batchId: submitted.batch.id, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    expect(revert.plan.summary).toMatchObject({ change: planned.plan.summary.change, refused: 0 });
    const reverting = await h.system.submit(revert.plan, { options: revertBatchOptions(submitted.batch.id) });
    await h.waitForState(reverting.batch.id, ['finished'], 120_000);
    expect(owner1.type).toBe('TEXT_NUMBER');
    expect(office1.columns.map((c) => c.title)).toEqual(['Asset', 'Status', 'Owner', 'Notes']);
    expect(office1.columns.find((c) => c.title === 'Status')?.options).toBeUndefined();
  });

  it('a plan older than its reading stands (15 minutes) reads each column before its change, and revert restores it the same', async () => {
    const h = await batches.open({ rateLimit: 'off', data: fixture, adminToken: ADMIN });
    const state = h.server.context.state;
    const office2 = [...state.sheets.values()].find((sheet) => sheet.name === 'Assets office 2')!;
    const planned = await plan(h, [office2.id]);
    const updates = Array.from(planned.plan.rows).filter((row) => row.verdict === 'change' && row.action?.action === 'update-column');
    expect(updates.length).toBeGreaterThan(0);
    // Queued 16 minutes after the plan read (an approval, say): the plan's reading no longer stands.
    h.server.context.clock.advance(16 * 60_000);
    const since = lastSeq(h);
    h.startWorkers();
    const submitted = await h.system.submit(planned.plan);
    expect((await h.waitForState(submitted.batch.id, ['finished'], 60_000)).counts).toMatchObject({ failed: 0 });
    expect(h.server.requests.list({ afterSeq: since, operation: 'getColumn' })).toHaveLength(updates.length);
    const revert = await planRevert({ batchId: submitted.batch.id, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: { ...GUARDRAILS, protectedAccounts: [] }, reactivationWindowDays: 30 });
    const reverting = await h.system.submit(revert.plan, { options: revertBatchOptions(submitted.batch.id) });
    await h.waitForState(reverting.batch.id, ['finished'], 60_000);
    expect(office2.columns.map((c) => [c.title, c.type])).toEqual([['Asset', 'TEXT_NUMBER'], ['Status', 'TEXT_NUMBER'], ['Owner', 'TEXT_NUMBER'], ['Notes', 'TEXT_NUMBER'], ['Assigned On', 'DATE']]);
  });
});
