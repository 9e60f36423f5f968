import { describe, expect, it } from 'vitest';
import { approvalReasons, checkApprovalPolicy } from '../../../src/governance/approvals/approval-policy.js';
import { diffPlans, fingerprintOfBatchPlan, formatDiff, planHashOf } from '../../../src/governance/approvals/plan-fingerprint.js';
import { RowStore } from '../../../src/manifest/row-store.js';
import type { BatchPlan, PlannedRow } from '../../../src/plan/planned-row.js';

const none = { actions: [], kinds: [] };

describe('approvalReasons', () => {
  const plan = { changes: 12, destructive: 4, actions: ['downgrade' as const, 'remove' as const] };

  it('asks for nothing when no limit is configured or crossed', () => {
    expect(approvalReasons('batch', plan, none)).toEqual([]);
    expect(approvalReasons('batch', plan, { ...none, changesAbove: 12, destructiveAbove: 4 })).toEqual([]);
  });

  it('names each limit crossed, a listed kind or action, and a policy that asks for approval itself', () => {
    const reasons = approvalReasons('reconciliation', plan, { changesAbove: 10, destructiveAbove: 3, actions: ['remove'], kinds: ['reconciliation'] }, 'the policy asks for approval');
    expect(reasons).toEqual([
      'every reconciliation needs approval (governance.approvals.kinds)',
      'the policy asks for approval',
      '12 changes, more than governance.approvals.changesAbove (10)',
      '4 destructive changes, more than governance.approvals.destructiveAbove (3)',
      'rows with remove (governance.approvals.actions)',
    ]);
  });

  it('asks nothing of a change that changes nothing, whatever the policy says', () => {
    expect(approvalReasons('revert', { changes: 0, destructive: 0, actions: [] }, { ...none, kinds: ['revert'], changesAbove: 0 })).toEqual([]);
  });

  it('refuses an action name that does not exist, so a typo cannot switch approvals off', () => {
    expect(() => checkApprovalPolicy({ actions: ['remove', 'downgarde'], kinds: [] })).toThrow(/governance.approvals.actions: "downgarde" is not an action/);
  });
});

function row(n: number, verdict: PlannedRow['verdict'], seatType: 'CONTRIBUTOR' | 'GUEST' = 'CONTRIBUTOR', reason?: string): PlannedRow {
  return {
    row: n,
    line: n + 1,
    action: { action: 'downgrade', user: { email: `user${n}@acme.example` }, seatType },
    actionName: 'downgrade',
    verdict,
    ...(reason === undefined ? {} : { reason }),
    target: { userId: 1000 + n, email: `user${n}@acme.example`, planId: 7 },
  };
}

function planOf(rows: PlannedRow[], apiCalls = 3): BatchPlan {
  const summary = { total: rows.length, change: 0, 'no-op': 0, refused: 0, 'not-found': 0, conflict: 0, invalid: 0 };
  for (const r of rows) summary[r.verdict] += 1;
  return { rows, summary, apiCalls, source: { path: 'm.csv', sha256: 'a'.repeat(64), format: 'csv' } };
}

describe('the plan fingerprint', () => {
  it('is the same for a plan kept compact in a row store as for the same rows in an array, and counts in one pass', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => row(i + 1, i % 3 === 0 ? 'no-op' : 'change', i % 2 === 0 ? 'GUEST' : 'CONTRIBUTOR'));
    const store = new RowStore<PlannedRow>({ chunkChars: 4096 });
    for (const r of rows) store.append(r);
    const inArray = fingerprintOfBatchPlan(planOf(rows));
    const compact = fingerprintOfBatchPlan({ ...planOf(rows), rows: store });
    expect(planHashOf('batch', 't', compact.lines)).toBe(planHashOf('batch', 't', inArray.lines));
    expect(compact).toMatchObject({ changes: 2000, destructive: 2000, actions: ['downgrade'] });
    // Lines are made again on each read, never kept: the same lines twice.
    expect([...compact.lines]).toEqual([...compact.lines]);
    expect([...compact.lines]).toHaveLength(3000);
  });

  it('hashes what will be done, not the words of a reason or the calls the pre-flight spent', () => {
    const a = fingerprintOfBatchPlan(planOf([row(1, 'change'), row(2, 'no-op', 'CONTRIBUTOR', 'already CONTRIBUTOR')], 3));
    const b = fingerprintOfBatchPlan(planOf([row(2, 'no-op', 'CONTRIBUTOR', 'the user already holds that seat'), row(1, 'change')], 9));
    expect(planHashOf('batch', 'sim:x', a.lines)).toBe(planHashOf('batch', 'sim:x', b.lines));
    expect(planHashOf('batch', 'sim:x', a.lines)).not.toBe(planHashOf('batch', 'https://api.smartsheet.com/2.0', a.lines));
    expect(a).toMatchObject({ changes: 1, destructive: 1, actions: ['downgrade'], summary: { change: 1, 'no-op': 1 } });
  });

  it('changes with a verdict, a seat or a resolved user, and says which row changed how', () => {
    const approved = fingerprintOfBatchPlan(planOf([row(1, 'change'), row(2, 'change'), row(3, 'change')]));
    const fresh = fingerprintOfBatchPlan(planOf([row(1, 'change'), row(2, 'no-op'), row(3, 'change', 'GUEST'), row(4, 'change')]));
    expect(planHashOf('batch', 't', fresh.lines)).not.toBe(planHashOf('batch', 't', approved.lines));
    const diff = diffPlans([...approved.lines], [...fresh.lines]);
    expect(diff.changed.map(({ after }) => after.key)).toEqual(['row 2', 'row 3']);
    expect(diff.added.map((line) => line.key)).toEqual(['row 4']);
    expect(formatDiff(diff)).toEqual([
      'row 2: was "downgrade user2@acme.example: change", now "downgrade user2@acme.example: no-op"',
      'row 3: was "downgrade user3@acme.example: change", now "downgrade user3@acme.example: change"',
      'row 4: new: "downgrade user4@acme.example: change"',
    ]);
  });
});
