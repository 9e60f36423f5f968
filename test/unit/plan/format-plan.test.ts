import { describe, expect, it } from 'vitest';
import { describeSubject, formatPlan } from '../../../src/plan/format-plan.js';
import type { BatchPlan, PlannedRow } from '../../../src/plan/planned-row.js';

const LONG_REASON = 'sam.taylor@gmail.com is on a consumer mail domain; the service cannot deactivate it (1359), so ask the person to move to a company address before the batch runs';

function planOf(rows: PlannedRow[]): BatchPlan {
  return {
    rows,
    summary: { total: rows.length, change: 0, 'no-op': 0, refused: rows.length, 'not-found': 0, conflict: 0, invalid: 0 },
    apiCalls: 1,
    source: { path: '/m.csv', sha256: 'x', format: 'csv' },
  };
}

const refusedRow: PlannedRow = {
  row: 7,
  line: 8,
  action: { action: 'deactivate', user: { email: 'sam.taylor@gmail.com' } },
  actionName: 'deactivate',
  verdict: 'refused',
  rule: 'isp-domain',
  reason: LONG_REASON,
  target: { email: 'sam.taylor@gmail.com', userId: 9 },
};

function rowLine(text: string): string {
  return text.split('\n').find((line) => line.startsWith('7 '))!;
}

describe('formatPlan', () => {
  it('cuts nothing when no width is given (stdout is not a terminal)', () => {
    const line = rowLine(formatPlan(planOf([refusedRow])));
    expect(line).toBe(`7    deactivate  sam.taylor@gmail.com  refused  [isp-domain] ${LONG_REASON}`);
  });

  it('keeps the rule tag when the reason is cut to a narrow terminal', () => {
    const line = rowLine(formatPlan(planOf([refusedRow]), { width: 80 }));
    expect(line).toMatch(/^7 +deactivate +sam\.taylor@gmail\.com +refused +\[isp-domain\] sam\.taylor@gmail.*…$/);
    expect(line.length).toBeLessThanOrEqual(80);
  });

  it('shows the errorCode the service would answer next to the rule', () => {
    const line = rowLine(formatPlan(planOf([{ ...refusedRow, errorCode: 1359, reason: 'consumer domain' }])));
    expect(line).toBe('7    deactivate  sam.taylor@gmail.com  refused  [isp-domain 1359] consumer domain');
  });

  it('shows a long subject whole when no width is given', () => {
    const email = `${'x'.repeat(70)}@acme.example`;
    const line = rowLine(formatPlan(planOf([{ ...refusedRow, action: { action: 'deactivate', user: { email } }, target: {} }])));
    expect(line).toContain(email);
  });

  it('prints a plan of 150,000 rows (a table of one argument per row overflowed the call stack at about 125,000)', () => {
    const rows: PlannedRow[] = [];
    for (let i = 1; i <= 150_000; i += 1) rows.push({ ...refusedRow, row: i, line: i + 1 });
    const text = formatPlan(planOf(rows));
    expect(text.split('\n').filter((line) => /^\d+ +deactivate /.test(line))).toHaveLength(150_000);
    expect(text).toContain('150000 rows:');
  });
});

describe('describeSubject', () => {
  it('names the sheet and column of a column row, and the webhook of a webhook row', () => {
    expect(describeSubject({ action: { action: 'update-column', sheetId: 2094857361029384, columnTitle: 'Status', title: 'State' }, target: {} })).toBe(
      'sheet 2094857361029384 column "Status"',
    );
    expect(describeSubject({ action: { action: 'delete-column', sheetId: 2094857361029384, columnId: 77 }, target: {} })).toBe('sheet 2094857361029384 column 77');
    expect(describeSubject({ action: { action: 'enable-webhook', webhookId: 123 }, target: {} })).toBe('webhook 123');
  });

  it('names the e-mail an invalid row gave, as written', () => {
    expect(describeSubject({ action: undefined, target: {}, rawEmail: '=3@acme.example' })).toBe('=3@acme.example');
  });
});
