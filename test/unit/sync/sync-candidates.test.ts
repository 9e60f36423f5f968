import { describe, expect, it } from 'vitest';
import { keptOf, type Employee, type KeptEmployee } from '../../../src/sync/employee.js';
import { lifecyclePolicySchema } from '../../../src/sync/lifecycle-policy.js';
import { syncCandidates, type CandidateInput } from '../../../src/sync/sync-candidates.js';
import type { LiveMember } from '../../../src/sync/live-member.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T12:00:00Z');
const policy = lifecyclePolicySchema.parse({
  timeZone: 'UTC',
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  protect: { emails: ['ceo@acme.example'], domains: ['partner.example'] },
});

let rows = 0;
function employee(id: string, email: string, extra: Partial<Employee> = {}): Employee {
  rows += 1;
  return { row: rows, line: rows + 1, employeeId: id, email, status: 'active', department: 'Engineering', timeZone: 'UTC', ...extra };
}
function member(id: number, email: string, extra: Partial<LiveMember> = {}): LiveMember {
  return { id, email, status: 'ACTIVE', admin: false, seat: 'MEMBER', ...extra };
}
function input(employees: Employee[], live: LiveMember[], extra: Partial<CandidateInput> = {}): CandidateInput {
  return {
    employees,
    previous: undefined,
    live: new Map(live.map((user) => [user.email, user])),
    leaving: new Map(),
    pendingJoin: new Set(),
    pendingMove: new Set(),
    policy,
    protectedAccounts: [],
    callerId: 1,
    nowMs: NOW,
    nextRow: 100,
    ...extra,
  };
}
const previousOf = (employees: Employee[]): Map<string, KeptEmployee> => new Map(employees.map((e) => [e.employeeId, keptOf(e)]));
const emails = (items: readonly { email?: string; employee?: { email: string } }[]) => items.map((item) => item.email ?? item.employee?.email);

describe('syncCandidates', () => {
  it('on a first sync, plans joiners and leavers from the live organization, lists the rest, and protects who the policy protects', () => {
    const out = syncCandidates(
      input(
        [
          employee('1', 'ann@acme.example'),
          employee('2', 'new@acme.example', { startAt: NOW + 3 * DAY }),
          employee('3', 'leo@acme.example', { endAt: NOW + 2 * DAY, managerEmail: 'ann@acme.example' }),
          employee('4', 'back@acme.example'),
          employee('5', 'ceo@acme.example', { endAt: NOW - DAY }),
          employee('6', 'guest@partner.example'),
        ],
        [member(1, 'admin@acme.example', { admin: true }), member(2, 'ann@acme.example'), member(3, 'leo@acme.example'), member(4, 'back@acme.example', { status: 'DEACTIVATED', seat: 'CONTRIBUTOR' }), member(5, 'ceo@acme.example'), member(6, 'stray@acme.example')],
      ),
    );
    expect(out.joiners.map((j) => [j.employee.email, j.how, j.seat, j.cause, j.dueAt])).toEqual([
      ['new@acme.example', 'add', { seat: 'MEMBER', rule: 'engineering' }, 'in the export, not in the organization (first sync)', NOW + 3 * DAY],
      ['guest@partner.example', 'add', { seat: 'MEMBER', rule: 'engineering' }, 'in the export, not in the organization (first sync)', NOW],
    ].filter(([email]) => email !== 'guest@partner.example'));
    expect(out.leavers.map((l) => [l.email, l.leaveAt, l.transferTo, l.absent])).toEqual([['leo@acme.example', NOW + 2 * DAY, 'ann@acme.example', false]]);
    expect(out.protected.map((p) => [p.email, p.note])).toEqual([
      ['ceo@acme.example', "listed in the policy's protect.emails: not offboarded"],
      ['guest@partner.example', "domain partner.example (the policy's protect.domains): not added"],
    ]);
    expect(out.listed.map((l) => l.email)).toEqual(['back@acme.example']);
    expect(out.movers).toEqual([]);
    expect(out.notInExport.map((n) => [n.email, n.note])).toEqual([
      ['admin@acme.example', 'ACTIVE; the account running seatflow: never touched'],
      ['stray@acme.example', 'ACTIVE; listed only (the policy\'s notInExport: "list")'],
    ]);
  });

  it('acts on what changed since the last accepted export: a new employee, a move to another seat, a new end date, one gone, a rehire', () => {
    const before = [
      employee('1', 'ann@acme.example'),
      employee('2', 'bob@acme.example'),
      employee('3', 'cat@acme.example'),
      employee('4', 'dan@acme.example', { status: 'leaver' }),
      employee('5', 'eve@acme.example', { managerEmail: 'ann@acme.example' }),
      employee('6', 'fay@acme.example', { title: 'Engineer' }),
    ];
    const out = syncCandidates(
      input(
        [
          before[0]!,
          { ...before[1]!, department: 'Sales', effectiveAt: NOW + DAY },
          { ...before[2]!, endAt: NOW + 5 * DAY },
          { ...before[3]!, status: 'active' },
          { ...before[5]!, title: 'Staff Engineer' },
          employee('7', 'gus@acme.example'),
        ],
        [member(2, 'ann@acme.example'), member(3, 'bob@acme.example'), member(4, 'cat@acme.example'), member(5, 'dan@acme.example', { status: 'DEACTIVATED', seat: 'CONTRIBUTOR' }), member(6, 'eve@acme.example'), member(7, 'fay@acme.example')],
        { previous: previousOf(before) },
      ),
    );
    expect(out.joiners.map((j) => [j.employee.email, j.how, j.cause])).toEqual([
      ['dan@acme.example', 'reactivate', 'employed again (the last accepted export had them leaving): a rehire'],
      ['gus@acme.example', 'add', 'new in the export'],
    ]);
    // Fay's new title maps to the same seat: not a mover.
    expect(out.movers.map((m) => [m.employee.email, m.seat.seat, m.cause, m.dueAt])).toEqual([['bob@acme.example', 'CONTRIBUTOR', 'department Engineering → Sales', NOW + DAY]]);
    expect(out.leavers.map((l) => [l.email, l.leaveAt, l.transferTo, l.cause, l.absent, l.row])).toEqual([
      ['cat@acme.example', NOW + 5 * DAY, undefined, expect.stringMatching(/^end date /), false, before[2]!.row],
      ['eve@acme.example', undefined, 'ann@acme.example', 'gone from the export', true, 100],
    ]);
    expect(out.gone).toBe(1);
  });

  it('does nothing for the same facts again, nor for people whose step is already to come', () => {
    const people = [employee('1', 'ann@acme.example'), employee('2', 'new@acme.example', { startAt: NOW + DAY }), employee('3', 'leo@acme.example', { endAt: NOW + DAY })];
    const out = syncCandidates(input(people, [member(2, 'ann@acme.example'), member(3, 'leo@acme.example')], { previous: previousOf(people), leaving: new Map([[3, 'offboarding o123456789abc row 3']]), pendingJoin: new Set(['new@acme.example']) }));
    expect([out.joiners, out.movers, out.leavers, out.undos, out.transfers, out.listed]).toEqual([[], [], [], [], [], []]);
  });

  it('undoes the open offboarding of someone employed again, and points a leaver\'s removal at their new manager', () => {
    const before = [employee('1', 'leo@acme.example', { endAt: NOW + 2 * DAY }), employee('2', 'mia@acme.example', { endAt: NOW + 2 * DAY, managerEmail: 'ann@acme.example' })];
    const out = syncCandidates(
      input([{ ...before[0]!, endAt: undefined }, { ...before[1]!, managerEmail: 'bob@acme.example' }], [member(3, 'leo@acme.example'), member(4, 'mia@acme.example')], {
        previous: previousOf(before),
        leaving: new Map([
          [3, 'offboarding oaaaaaaaaaaaa row 1'],
          [4, 'offboarding oaaaaaaaaaaaa row 2'],
        ]),
      }),
    );
    expect(out.undos.map((u) => [u.employee.email, u.workflowId, u.row])).toEqual([['leo@acme.example', 'oaaaaaaaaaaaa', 1]]);
    expect(out.transfers.map((t) => [t.employee.email, t.row, t.from, t.to])).toEqual([['mia@acme.example', 2, 'ann@acme.example', 'bob@acme.example']]);
    expect(out.leavers).toEqual([]);
  });

  it('keeps a fixed-term joiner\'s end date unaccepted until they are a member, so that it starts their offboarding then', () => {
    const contractor = employee('1', 'tem@acme.example', { startAt: NOW + DAY, endAt: NOW + 90 * DAY });
    const first = syncCandidates(input([contractor], []));
    expect(emails(first.joiners)).toEqual(['tem@acme.example']);
    expect(first.kept.get('1')).toEqual({ e: 'tem@acme.example', s: 'a', start: NOW + DAY, d: 'Engineering' });
    const later = syncCandidates(input([contractor], [member(9, 'tem@acme.example')], { previous: first.kept, nowMs: NOW + 2 * DAY }));
    expect(later.leavers.map((l) => [l.email, l.leaveAt])).toEqual([['tem@acme.example', NOW + 90 * DAY]]);
    expect(later.joiners).toEqual([]);
  });

  it('offboards people in no export only when the policy says so, and never the protected', () => {
    const offboard = lifecyclePolicySchema.parse({ timeZone: 'UTC', seats: {}, notInExport: 'offboard' });
    const out = syncCandidates(input([employee('1', 'ann@acme.example')], [member(2, 'ann@acme.example'), member(3, 'old@acme.example'), member(4, 'boss@acme.example', { admin: true }), member(5, 'kept@acme.example')], { policy: offboard, protectedAccounts: ['kept@acme.example'] }));
    expect(out.leavers.map((l) => [l.email, l.absent, l.cause])).toEqual([['old@acme.example', true, 'not in the export (the policy\'s notInExport: "offboard")']]);
    expect(out.notInExport.map((n) => n.note)).toEqual(['ACTIVE; offboarded (the policy\'s notInExport)', "ACTIVE; System Admin (the policy's protect.admins): never touched", 'ACTIVE; protected account (guardrails.protectedAccounts): never touched']);
  });
});
