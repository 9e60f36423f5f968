import { describe, expect, it } from 'vitest';
import type { Column } from '../../../src/contract/index.js';
import { columnSpecSchema } from '../../../src/migrate/column-spec.js';
import { judgedPlan } from '../../../src/migrate/judged-plan.js';
import { sheetRows } from '../../../src/migrate/plan-column-migration.js';
import { resourceFacts } from '../../../src/migrate/resource-facts.js';

const SHEET = 42;
const col = (id: number, title: string, type: Column['type'], extra: Partial<Column> = {}): Column => ({ id, index: id - 1, title, type, ...extra });

function judge(live: Column[], specInput: unknown) {
  const spec = columnSpecSchema.parse(specInput);
  const rows = sheetRows(SHEET, live, spec);
  return judgedPlan('t', rows, resourceFacts({ columns: new Map([[SHEET, live]]) }), { apiCalls: 0, guardrails: { destructiveMaxCount: 100, destructiveMaxShare: 1 } });
}

describe('a column migration\'s rows for one sheet', () => {
  it('renames a former title, changes type and options together, adds what is missing, leaves the rest', () => {
    const live = [col(1, 'Asset', 'TEXT_NUMBER', { primary: true }), col(2, 'Notes', 'TEXT_NUMBER'), col(3, 'Status', 'PICKLIST', { options: ['In use', 'Spare'] }), col(4, 'Legacy', 'TEXT_NUMBER')];
    const { plan } = judge(live, {
      columns: [
        { title: 'Comments', type: 'TEXT_NUMBER', formerTitles: ['Notes'] },
        { title: 'Status', type: 'PICKLIST', options: ['In use', 'Spare', 'Retired'] },
        { title: 'Assigned On', type: 'DATE', index: 9 },
      ],
    });
    expect(Array.from(plan.rows, (row) => [row.action, row.verdict])).toEqual([
      [{ action: 'update-column', sheetId: SHEET, columnId: 2, title: 'Comments' }, 'change'],
      [{ action: 'update-column', sheetId: SHEET, columnId: 3, type: 'PICKLIST', options: ['In use', 'Spare', 'Retired'] }, 'change'],
      // At most the sheet's column count: the rows of a batch run in any order.
      [{ action: 'add-column', sheetId: SHEET, title: 'Assigned On', type: 'DATE', index: 4 }, 'change'],
    ]);
    expect(plan.rows.at(2)?.reason).toMatch(/^added at 4, not 9/);
  });

  it('deletes the columns the standard does not name only when it says so, never the primary nor those it keeps', () => {
    const live = [col(1, 'Asset', 'TEXT_NUMBER', { primary: true }), col(2, 'Status', 'TEXT_NUMBER'), col(3, 'Legacy', 'TEXT_NUMBER'), col(4, 'Audit', 'TEXT_NUMBER')];
    const kept = judge(live, { columns: [{ title: 'Status', type: 'TEXT_NUMBER' }] });
    expect(kept.plan.summary.total).toBe(0);
    const pruned = judge(live, { columns: [{ title: 'Status', type: 'TEXT_NUMBER' }], deleteOthers: true, keep: ['audit'] });
    expect(Array.from(pruned.plan.rows, (row) => row.action)).toEqual([{ action: 'delete-column', sheetId: SHEET, columnId: 3 }]);
    expect(pruned.guardrails.destructiveCount).toBe(1);
  });

  it('refuses what the service refuses: the primary column\'s type, a Gantt column\'s type while the predecessor column shows dependencies on', () => {
    const gantt = [col(1, 'Task', 'TEXT_NUMBER', { primary: true }), col(2, 'Start', 'DATE', { tags: ['GANTT_START_DATE'] }), col(3, 'Predecessors', 'PREDECESSOR', { tags: ['GANTT_PREDECESSOR'] })];
    const spec = { columns: [{ title: 'Task', type: 'DATE' }, { title: 'Start', type: 'TEXT_NUMBER' }] };
    expect(Array.from(judge(gantt, spec).plan.rows, (row) => [row.rule, row.verdict])).toEqual([['primary-column', 'refused'], ['gantt-column-with-dependencies', 'refused']]);
    // Without a predecessor column dependencies are off: the type changes, every cell of it converted.
    const plain = judge(gantt.slice(0, 2), spec).plan.rows.at(1);
    expect(plain?.verdict).toBe('change');
    expect(plain?.reason).toMatch(/Gantt\/calendar column/);
  });

  it('refuses a standard that names a column twice, or gives options to a type without them', () => {
    expect(columnSpecSchema.safeParse({ columns: [{ title: 'Status', type: 'TEXT_NUMBER' }, { title: 'State', type: 'TEXT_NUMBER', formerTitles: ['status'] }] }).error?.issues[0]?.message).toMatch(/"status" names two columns/);
    expect(columnSpecSchema.safeParse({ columns: [{ title: 'Due', type: 'DATE', options: ['a'] }] }).error?.issues[0]?.message).toMatch(/options are for PICKLIST and MULTI_PICKLIST/);
  });
});
