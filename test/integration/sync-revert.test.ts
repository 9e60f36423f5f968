import { describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { changes, seatOf, userOf, SYNC_GUARDRAILS, useSyncHarnesses } from '../helpers/sync-harness.js';

const POLICY = {
  timeZone: 'UTC',
  planId: DEMO.planId,
  seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' },
  leavers: { hold: '7d', transferTo: 'admin@acme.example' },
};
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Department,Job Title,Manager Email,Effective Date,Generated At';

describe('seatflow revert of the step batches a sync ran', { timeout: 120_000 }, () => {
  const { open } = useSyncHarnesses();

  it('removes the user a joiner step added (as revert undoes any add, and says so) and gives a mover their seat back; the upgrade that completed the join is refused with the reason', async () => {
    const { h, s } = await open();
    const policy = s.writePolicy('lifecycle.json', POLICY);
    const start = h.server.context.clock.now();
    const date = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
    const generated = (hours: number) => `${new Date(start + hours * 3_600_000).toISOString().slice(0, 19)}Z`;
    const row = (cells: { id: string; email: string; department: string; start?: string; effective?: string }, at: string) =>
      [cells.id, cells.email, 'Active', cells.start ?? '2020-01-06', cells.department, 'Engineer', '', cells.effective ?? '', at].join(',');
    const dana = { id: 'E001', email: 'dana.whitfield@acme.example', department: 'Engineering' };
    const jordan = { id: 'E002', email: 'jordan.lee@acme.example', department: 'Engineering' };
    const nina = { id: 'E010', email: 'nina.new@acme.example', department: 'Engineering', start: date(1) };
    s.o.startWorkers();

    // Night 1: Nina joins tomorrow. Later that night a corrected export moves Jordan to Sales from tomorrow.
    const first = await s.sync(s.writeExport('hr-1.csv', [HEADER, row(dana, generated(0)), row(jordan, generated(0)), row(nina, generated(0))]), policy);
    if (first.kind !== 'planned' || first.applied?.joiners === undefined) throw new Error('night 1 queued no joiners');
    const second = await s.sync(s.writeExport('hr-2.csv', [HEADER, row(dana, generated(1)), row({ ...jordan, department: 'Sales', effective: date(1) }, generated(1)), row(nina, generated(1))]), policy);
    if (second.kind !== 'planned' || second.applied?.movers === undefined) throw new Error('night 2 queued no movers');
    expect(second.plan.movers.map((m) => [m.employee.email, m.action, m.seat.seat])).toEqual([['jordan.lee@acme.example', 'downgrade', 'CONTRIBUTOR']]);

    // The start and effective date come: the joiner is added and seated, the mover's seat changes.
    await s.o.advance(DAY);
    await s.settleAll();
    expect(await changes(h, nina.email)).toEqual(['addUser', 'upgradeUser']);
    expect(seatOf(h, nina.email)).toBe('MEMBER');
    expect(await changes(h, jordan.email)).toEqual(['downgradeUser']);
    expect(seatOf(h, jordan.email)).toBe('CONTRIBUTOR');

    const joiners = first.applied.joiners.workflowId;
    const movers = second.applied.movers.workflowId;
    const revertOf = (batchId: string) => planRevert({ batchId, store: h.system.store, registry: createJobRegistry(), api: h.api, guardrails: SYNC_GUARDRAILS, reactivationWindowDays: 30, now: () => h.server.context.clock.now() });
    const runRevert = async (batchId: string) => {
      const revert = await revertOf(batchId);
      const submitted = await h.system.submit(revert.plan, { options: revertBatchOptions(batchId) });
      return h.waitForState(submitted.batch.id, ['finished']);
    };

    // The joiner's add step: its inverse is a removal, which the plan says before anything runs.
    const addBatch = `${joiners}-add`;
    expect((await h.system.store.get(addBatch))?.state).toBe('finished');
    const revertAdd = await revertOf(addBatch);
    expect(revertAdd).toMatchObject({ changed: 1, unchanged: 0, plan: { summary: { total: 1, change: 1, refused: 0 } } });
    expect(Array.from(revertAdd.plan.rows, (r) => [r.actionName, r.target.email, r.verdict])).toEqual([['remove', nina.email, 'change']]);
    expect(revertAdd.plan.notes).toContain('row 1: the added user is removed from the organization, with anything they own by now');

    // The seat the joiner step then gave: a Provisional Member seat is not one a downgrade gives back; refused, with why.
    const revertJoinSeat = await revertOf(`${joiners}-seat`);
    expect(revertJoinSeat.plan.summary).toMatchObject({ total: 1, change: 0, refused: 1 });
    expect(revertJoinSeat.plan.rows.at(0)?.reason).toMatch(/nina\.new@acme\.example.*cannot be undone: the user held PROVISIONAL_MEMBER in plan \d+ before, which a downgrade cannot give/);

    // The mover's seat step: an upgrade back to the seat held before the move.
    const seatBatch = `${movers}-seat`;
    expect((await h.system.store.get(seatBatch))?.state).toBe('finished');
    const revertSeat = await revertOf(seatBatch);
    expect(Array.from(revertSeat.plan.rows, (r) => [r.actionName, r.target.email, r.verdict, r.action?.action === 'upgrade' ? r.action.seatType : undefined])).toEqual([['upgrade', jordan.email, 'change', 'MEMBER']]);

    expect((await runRevert(seatBatch)).counts.succeeded).toBe(1);
    expect(seatOf(h, jordan.email)).toBe('MEMBER');
    expect(await changes(h, jordan.email)).toEqual(['downgradeUser', 'upgradeUser']);
    expect((await runRevert(addBatch)).counts.succeeded).toBe(1);
    expect(userOf(h, nina.email)).toBeUndefined();
    expect(await changes(h, nina.email)).toEqual(['addUser', 'upgradeUser', 'removeUser']);

    // The next sync compares with the last accepted export, in which both changes were already made: it plans neither
    // again, so the revert stands until HR changes the person's record.
    const third = await s.sync(s.writeExport('hr-3.csv', [HEADER, row(dana, generated(30)), row({ ...jordan, department: 'Sales', effective: date(1) }, generated(30)), row(nina, generated(30))]), policy, { apply: false });
    if (third.kind !== 'planned') throw new Error('night 3 was not planned');
    expect([third.plan.joiners, third.plan.movers]).toEqual([[], []]);
  });
});

