import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { StaleExportError } from '../../src/sync/run-sync.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { changes, rehireCandidate, seatOf, userOf, useSyncHarnesses, type SyncHarness } from '../helpers/sync-harness.js';

const POLICY = {
  timeZone: 'UTC',
  planId: DEMO.planId,
  seats: {
    rules: [
      { name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } },
      { name: 'interns', when: { titleContains: 'Intern' }, then: { seat: 'CONTRIBUTOR' } },
    ],
    default: 'CONTRIBUTOR',
  },
  leavers: { hold: '7d', transferTo: 'admin@acme.example' },
};

const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';

/** One export row, in the column order of HEADER. */
interface Row {
  id: string;
  email: string;
  status?: string;
  start?: string;
  end?: string;
  department?: string;
  title?: string;
  manager?: string;
  effective?: string;
}

describe('seatflow sync: a sequence of nightly exports against the reference server, its clock moved', () => {
  const { open } = useSyncHarnesses();

  it('adds joiners on their start date with their seat, changes a mover on the effective date, offboards a leaver to their manager, reactivates a rehire, holds a broken export; each change once', async () => {
    const { h, s } = await open();
    const policy = s.writePolicy('lifecycle.json', POLICY);
    const start = h.server.context.clock.now();
    const date = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
    let nights = 0;
    const night = (rows: readonly Row[], generatedDay: number) => {
      nights += 1;
      const generated = `${new Date(start + generatedDay * DAY).toISOString().slice(0, 19)}Z`;
      return s.writeExport(`hr-${nights}.csv`, [HEADER, ...rows.map((r) => [r.id, r.email, r.status ?? 'Active', r.start ?? '2020-01-06', r.end ?? '', r.department ?? '', r.title ?? '', r.manager ?? '', 'Berlin', r.effective ?? '', generated].join(','))]);
    };
    const rehire = rehireCandidate(h);
    const staff: Row[] = [
      { id: 'E001', email: 'dana.whitfield@acme.example', department: 'Engineering', title: 'Head of Engineering' },
      { id: 'E002', email: 'jordan.lee@acme.example', department: 'Engineering', title: 'Engineer', manager: 'dana.whitfield@acme.example' },
      { id: 'E003', email: 'priya.shah@acme.example', department: 'Engineering', title: 'Engineer', manager: 'dana.whitfield@acme.example' },
      { id: 'E004', email: 'marcus.chen@acme.example', department: 'Engineering', title: 'Engineer', manager: 'priya.shah@acme.example' },
      { id: 'E005', email: 'chris.morgan@acme.example', department: 'Engineering', title: 'Engineer', manager: 'dana.whitfield@acme.example' },
    ];
    const nina: Row = { id: 'E010', email: 'nina.new@acme.example', department: 'Engineering', title: 'Engineer', start: date(2), manager: 'dana.whitfield@acme.example' };
    const omar: Row = { id: 'E011', email: 'omar.intern@acme.example', department: 'Marketing', title: 'Marketing Intern', start: date(0), manager: 'dana.whitfield@acme.example' };
    s.o.startWorkers();

    // Night 1, the first sync: the joiners are planned, due on their start dates; nothing else changes.
    const first = await s.sync(night([...staff, nina, omar], 0), policy);
    expect(first.kind).toBe('planned');
    if (first.kind !== 'planned') return;
    expect(first.disposition.applied).toBe(true);
    expect(first.plan.joiners.map((j) => [j.employee.email, j.how, j.seat.seat, j.seat.rule, j.verdict])).toEqual([
      ['nina.new@acme.example', 'add', 'MEMBER', 'engineering', 'change'],
      ['omar.intern@acme.example', 'add', 'CONTRIBUTOR', 'interns', 'change'],
    ]);
    expect(first.plan.joiners[0]?.cost).toMatch(/adds a PROVISIONAL_MEMBER seat.*then upgraded to a paid MEMBER seat \(engineering\)/);
    expect(first.plan.movers).toEqual([]);
    expect(first.plan.leavers).toBeUndefined();
    expect(first.plan.notInExport.length).toBeGreaterThan(300);
    await s.settleAll();
    expect(await changes(h, 'omar.intern@acme.example')).toEqual(['addUser', 'downgradeUser']);
    expect(seatOf(h, 'omar.intern@acme.example')).toBe('CONTRIBUTOR');
    expect(userOf(h, 'nina.new@acme.example')).toBeUndefined();

    // Night 2 (a day later): Marcus's last day is in two days; Jordan moves to Sales tomorrow; a former employee returns.
    await s.o.advance(DAY);
    const marcusLeaving = { ...staff[3]!, end: date(3) };
    const jordanMoving = { ...staff[1]!, department: 'Sales', title: 'Account Executive', effective: date(2) };
    const second = [staff[0]!, jordanMoving, staff[2]!, marcusLeaving, staff[4]!, nina, omar, { id: 'E020', email: rehire, department: 'Engineering', title: 'Engineer', start: date(1) }];
    const nightTwo = night(second, 1);
    const two = await s.sync(nightTwo, policy);
    if (two.kind !== 'planned') throw new Error('night 2 was not planned');
    expect(two.plan.joiners.map((j) => [j.employee.email, j.how, j.cause])).toEqual([[rehire, 'reactivate', 'back in the export, deactivated in the organization (a rehire)']]);
    expect(two.plan.movers.map((m) => [m.employee.email, m.action, m.user.seat, m.seat.seat, m.seat.rule, m.cause])).toEqual([
      ['jordan.lee@acme.example', 'downgrade', 'MEMBER', 'CONTRIBUTOR', 'seats.default', 'department Engineering → Sales, title Engineer → Account Executive'],
    ]);
    expect(two.plan.leavers?.leavers.map((l) => [l.email, l.verdict, l.transferTo?.email])).toEqual([['marcus.chen@acme.example', 'deactivate-on-date', 'priya.shah@acme.example']]);
    expect(Object.values(two.plan.leaverCauses)).toEqual([{ cause: `end date ${date(3)}`, employeeId: 'E004' }]);
    await s.settleAll();
    expect(await changes(h, rehire)).toEqual(['reactivateUser']);
    expect(userOf(h, rehire)?.status).toBe('ACTIVE');
    expect(await changes(h, 'jordan.lee@acme.example')).toEqual([]);
    expect(await changes(h, 'marcus.chen@acme.example')).toEqual([]);

    // The same export again does nothing.
    const again = await s.sync(nightTwo, policy);
    expect(again.kind).toBe('same-export');

    // Night 3 (day 2): Nina starts and Jordan's move takes effect; Marcus's manager is now Dana.
    await s.o.advance(DAY);
    const three = await s.sync(night([staff[0]!, jordanMoving, staff[2]!, { ...marcusLeaving, manager: 'dana.whitfield@acme.example' }, staff[4]!, nina, omar, second[7]!], 2), policy);
    if (three.kind !== 'planned') throw new Error('night 3 was not planned');
    expect(three.plan.joiners).toEqual([]);
    expect(three.plan.movers).toEqual([]);
    expect(three.plan.transfers.map((t) => [t.employee.email, t.from, t.to])).toEqual([['marcus.chen@acme.example', 'priya.shah@acme.example', 'dana.whitfield@acme.example']]);
    await s.settleAll();
    expect(await changes(h, 'nina.new@acme.example')).toEqual(['addUser', 'upgradeUser']);
    expect(seatOf(h, 'nina.new@acme.example')).toBe('MEMBER');
    expect(await changes(h, 'jordan.lee@acme.example')).toEqual(['downgradeUser']);
    expect(seatOf(h, 'jordan.lee@acme.example')).toBe('CONTRIBUTOR');
    expect(await changes(h, 'marcus.chen@acme.example')).toEqual([]);

    // Night 4 (day 4): Marcus is deactivated after his last day. The export misses 2 of 8 employees: a broken export.
    await s.o.advance(2 * DAY);
    await s.settleAll();
    expect(await changes(h, 'marcus.chen@acme.example')).toEqual(['deactivateUser']);
    const before = (await h.mutations()).length;
    const broken = await s.sync(night([staff[0]!, jordanMoving, staff[2]!, { ...marcusLeaving, manager: 'dana.whitfield@acme.example' }, nina, omar], 4), policy);
    if (broken.kind !== 'planned') throw new Error('night 4 was not planned');
    expect(broken.plan.missing).toMatchObject({ gone: 2, base: 8, broken: true });
    expect(broken.disposition.applied).toBe(false);
    expect(broken.disposition.heldBecause?.[0]).toMatch(/lacks 2 of the 8 employees of the last accepted export \(25\.0%.*broken export, not a layoff.*--accept-missing/);
    await s.settleAll();
    expect((await h.mutations()).length).toBe(before);

    // An export older than the last accepted one is refused.
    await expect(s.sync(night([...staff, nina, omar], 0), policy)).rejects.toBeInstanceOf(StaleExportError);

    // A week later the hold ends: Marcus is removed, his sheets and groups to Dana (his manager by the last export).
    await s.o.advance(8 * DAY);
    await s.settleAll();
    expect(await changes(h, 'marcus.chen@acme.example')).toEqual(['deactivateUser', 'removeUser']);
    const removal = (await h.mutations()).find((m) => m.operation === 'removeUser' && m.userId === userOf(h, 'marcus.chen@acme.example', true)?.id);
    expect(removal?.summary).toMatch(/dana\.whitfield@acme\.example/);
    // Its report has Marcus's outcome in each step batch, though he is row 4 of the export and the offboarding's only
    // leaver (found by the simulation: a sync's leavers kept their export rows, and a step batch of 1 row read row 1).
    const offboardingId = two.applied?.offboarding?.workflowId;
    expect(offboardingId).toMatch(/^o[0-9a-f]{12}$/);
    for (const step of ['deactivate', 'remove']) expect((await h.outcomes(`${offboardingId}-${step}`)).map((o) => [o.email, o.outcome])).toEqual([['marcus.chen@acme.example', 'succeeded']]);

    // Each user changed once per change, over the whole sequence.
    expect(await changes(h, 'omar.intern@acme.example')).toEqual(['addUser', 'downgradeUser']);
    expect(await changes(h, 'nina.new@acme.example')).toEqual(['addUser', 'upgradeUser']);
    expect(await changes(h, rehire)).toEqual(['reactivateUser']);
    expect(await changes(h, 'jordan.lee@acme.example')).toEqual(['downgradeUser']);
    for (const email of ['dana.whitfield@acme.example', 'priya.shah@acme.example', 'chris.morgan@acme.example']) expect(await changes(h, email)).toEqual([]);
  }, 240_000);
});


export type { SyncHarness };
