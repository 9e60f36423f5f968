import { describe, expect, it } from 'vitest';
import { checkGuardrails, confirmGuardrails } from '../../../src/plan/guardrails.js';
import { formatPlan, summaryLine } from '../../../src/plan/format-plan.js';
import type { BatchPlan, PlannedRow } from '../../../src/plan/planned-row.js';

function row(n: number, actionName: 'deactivate' | 'reactivate', verdict: PlannedRow['verdict'] = 'change'): PlannedRow {
  return { row: n, line: n + 1, action: { action: actionName, user: { email: `u${n}@acme.example` } }, actionName, verdict, target: {} };
}
const limits = { destructiveMaxCount: 3, destructiveMaxShare: 0.5 };

describe('checkGuardrails', () => {
  it('passes when destructive changes stay within both limits', () => {
    const check = checkGuardrails({ rows: [row(1, 'deactivate'), row(2, 'reactivate'), row(3, 'deactivate', 'no-op')], organizationUsers: 100 }, limits);
    expect(check).toEqual({ destructiveCount: 1, organizationUsers: 100, reasons: [], needsConfirmation: false });
  });

  it('needs confirmation above the count and above the share of the organization', () => {
    const rows = [1, 2, 3, 4].map((n) => row(n, 'deactivate'));
    expect(checkGuardrails({ rows, organizationUsers: 100 }, limits).reasons).toEqual(['4 destructive changes, more than guardrails.destructiveMaxCount (3)']);
    expect(checkGuardrails({ rows: rows.slice(0, 2), organizationUsers: 3 }, limits).reasons[0]).toMatch(/66.7% of the organization's 3 users/);
  });
});

describe('confirmGuardrails', () => {
  const crossed = checkGuardrails({ rows: [1, 2, 3, 4].map((n) => row(n, 'deactivate')), organizationUsers: 100 }, limits);

  it('refuses without a terminal and without --yes, saying how to proceed', async () => {
    await expect(confirmGuardrails(crossed, { yes: false, interactive: false })).rejects.toMatchObject({ message: expect.stringMatching(/^refused: 4 destructive/), hint: expect.stringMatching(/--yes/) });
  });

  it('passes with --yes or when the person types yes', async () => {
    await expect(confirmGuardrails(crossed, { yes: true, interactive: false })).resolves.toBeUndefined();
    await expect(confirmGuardrails(crossed, { yes: false, interactive: true, ask: async () => 'yes' })).resolves.toBeUndefined();
    await expect(confirmGuardrails(crossed, { yes: false, interactive: true, ask: async () => 'n' })).rejects.toThrow(/not confirmed/);
  });
});

describe('formatPlan', () => {
  it('prints a table, a summary line and the calls spent', () => {
    const plan: BatchPlan = {
      rows: [{ ...row(1, 'deactivate'), target: { email: 'u1@acme.example', userId: 5 } }, { ...row(2, 'deactivate', 'refused'), rule: 'isp-domain', reason: 'consumer mail domain' }],
      summary: { total: 2, change: 1, 'no-op': 0, refused: 1, 'not-found': 0, conflict: 0, invalid: 0 },
      apiCalls: 3,
      source: { path: '/m.csv', sha256: 'x', format: 'csv' },
    };
    const text = formatPlan(plan);
    expect(text).toContain('row  action      subject          verdict  reason');
    expect(text).toContain('2    deactivate  u2@acme.example  refused  [isp-domain] consumer mail domain');
    expect(summaryLine(plan)).toBe('2 rows: 1 change, 0 no-op, 1 refused, 0 not-found, 0 conflict · 3 API calls');
  });
});
