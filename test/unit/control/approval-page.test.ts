import { describe, expect, it } from 'vitest';
import { approvalPage } from '../../../src/control/dashboard/pages/approvals-page.js';
import type { ApprovalRecord } from '../../../src/governance/approvals/approval-record.js';
import type { PlanLine } from '../../../src/governance/approvals/plan-fingerprint.js';
import { textOf } from './dashboard-sign-in.js';

const LEAVE_AT = Date.parse('2030-02-28T23:00:00.000Z'); // the end of 2030-02-28 in Berlin
const DAY = 86_400_000;
const RATE = { requests: 300, perSeconds: 60 };

const record: ApprovalRecord = {
  id: 'o0123456789ab',
  kind: 'offboarding',
  subject: 'leavers.csv',
  target: 'sim:test',
  sim: true,
  state: 'awaiting-approval',
  version: 0,
  requestedBy: { name: 'alice', role: 'operator', via: 'session' },
  requestedAt: '2026-11-23T09:15:00.000Z',
  reason: 'HR-4711',
  planHash: 'a'.repeat(64),
  summary: { 'deactivate-on-date': 1, 'deactivate-now': 1 },
  changes: 2,
  destructive: 2,
  why: ['offboarding is listed in governance.approvals.kinds'],
  guardrails: [],
  history: [{ event: 'requested', by: 'alice', at: '2026-11-23T09:15:00.000Z', planHash: 'a'.repeat(64) }],
};
const lines: PlanLine[] = [
  { key: 'row 1', text: 'x', decision: { email: 'ana@acme.example', userId: 1, verdict: 'deactivate-on-date', leaveAt: LEAVE_AT, transferTo: 7 }, view: { line: 2, transferTo: 'boss@acme.example' } },
  { key: 'row 2', text: 'x', decision: { email: 'ben@acme.example', userId: 2, verdict: 'deactivate-now', transferTo: null }, view: { line: 3 } },
];

describe('the approval page', () => {
  it('shows an offboarding as its requester saw it: words not codes, leave and removal dates in its zone, the hold, and the decision after the plan', () => {
    const body = approvalPage({ record: { ...record, callsToApply: 6 }, lines, rate: RATE, offboarding: { holdMs: 7 * DAY, timeZone: 'Europe/Berlin' }, csrfToken: 'csrf' }).text;
    const text = textOf(body);
    // Under the plan's title, as the requester's plan said it (two leavers, three calls each).
    expect(text).toContain('Plan (2 rows) Calls to apply: about 6 (about 1 s at 300 calls per 60 s, the configured rate)');
    expect(text).toContain('Hold 7d');
    expect(text).toContain('Times shown in Europe/Berlin');
    expect(text).toContain('Requested 2026-11-23 10:15 Europe/Berlin');
    expect(text).toMatch(/ana@acme\.example row 1 · line 2 on the leave date deactivated 2030-03-01 00:00 Europe\/Berlin removed 2030-03-08 00:00 Europe\/Berlin boss@acme\.example/);
    expect(text).toMatch(/ben@acme\.example row 2 · line 3 deactivate now deactivated as soon as it starts removed 7d after the deactivation/);
    expect(body).toContain('<time datetime="2030-02-28T23:00:00.000Z" title="2030-02-28 23:00:00 UTC">2030-03-01 00:00 Europe/Berlin</time>');
    expect(body).not.toContain('>deactivate-on-date<');
    expect(body.indexOf('id="plan-title"')).toBeLessThan(body.indexOf('id="decide-title"'));
  });

  it('shows a batch row by row as the plan page does, an update with its old and new values', () => {
    const batch: ApprovalRecord = { ...record, id: 'b0123456789ab', kind: 'batch' };
    const rows: PlanLine[] = [{ key: 'row 1', text: 'x', decision: { action: { action: 'update' }, verdict: 'change' }, view: { line: 2, action: 'update', subject: 'ana@acme.example', reason: 'sets firstName "Ana" → "Anna"' } }];
    const text = textOf(approvalPage({ record: batch, lines: rows, rate: RATE, csrfToken: 'csrf' }).text);
    expect(text).toContain('1 line 2 update ana@acme.example change sets firstName &quot;Ana&quot; → &quot;Anna&quot;');
    // A request stored before its calls were counted says nothing rather than a wrong number.
    expect(text).not.toContain('Calls to apply');
  });
});
