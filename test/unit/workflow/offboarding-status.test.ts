import { describe, expect, it } from 'vitest';
import type { LeaverState } from '../../../src/workflow/leaver-state.js';
import { formatOffboardingReport, offboardingReportRow } from '../../../src/workflow/offboarding-report.js';
import { formatOffboardingStatus, leaverView, offboardingStatus } from '../../../src/workflow/offboarding-status.js';
import type { WorkflowRecord } from '../../../src/workflow/workflow-store.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 23, 12);

const workflow: WorkflowRecord = {
  id: 'o0123456789ab', state: 'open', source: 'leavers.csv', sha256: 'f'.repeat(64), createdAt: new Date(NOW).toISOString(), target: 'sim:test', sim: false,
  holdMs: 7 * DAY, removeFromSharing: false, total: 2, deactivateBatch: 'o0123456789ab-deactivate', removeBatch: 'o0123456789ab-remove', reactivateBatch: 'o0123456789ab-reactivate',
};

function leaver(overrides: Partial<LeaverState>): LeaverState {
  return { row: 1, line: 2, email: 'jo@acme.example', userId: 5, leaveAt: NOW, phase: 'scheduled', version: 1, notes: [], steps: [], ...overrides };
}

describe('offboarding status', () => {
  it('says the next step, when, and until when undo is possible', () => {
    expect(leaverView(leaver({ leaveAt: NOW + DAY }), workflow, NOW)).toMatchObject({
      next: { step: 'deactivate', dueAt: new Date(NOW + DAY).toISOString(), overdue: false },
      undoUntil: new Date(NOW + 8 * DAY).toISOString(),
    });
    expect(leaverView(leaver({ phase: 'holding', holdUntil: NOW + 3 * DAY }), workflow, NOW)).toMatchObject({
      next: { step: 'remove', overdue: false },
      undoUntil: new Date(NOW + 3 * DAY).toISOString(),
    });
    expect(leaverView(leaver({ phase: 'removed' }), workflow, NOW).next).toBeUndefined();
  });

  it('flags a step that is due and that no worker has taken', () => {
    const status = offboardingStatus(workflow, [leaver({ phase: 'holding', holdUntil: NOW - 10 * 60_000 })], NOW, 0);
    expect(status.overdue).toBe(1);
    expect(formatOffboardingStatus(status)).toMatch(/DUE, no worker has taken it[\s\S]*no worker is connected\): start one with {2}seatflow worker/);
  });
});

describe('offboarding report', () => {
  it('neutralises cells a spreadsheet would run as formulas and writes objects as JSON', () => {
    const row = offboardingReportRow(workflow, leaver({ email: 'jo@acme.example', reason: '=HYPERLINK("x")', phase: 'failed', stateBefore: { recordedAt: 'x', seats: [], alternateEmails: ['-1@acme.example'] } }), {}, new Date(NOW));
    const csv = formatOffboardingReport([row], 'csv');
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).toContain('""alternateEmails"":[""-1@acme.example""]');
    expect(JSON.parse(formatOffboardingReport([row], 'jsonl'))).toMatchObject({ email: 'jo@acme.example', phase: 'failed' });
  });
});
