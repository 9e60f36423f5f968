import { describe, expect, it } from 'vitest';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

function userId(h: BatchHarness, email: string): number {
  const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
  if (user === undefined) throw new Error(`no user ${email}`);
  return user.id;
}

describe('offboarding: undo and the hold', () => {
  it('undo before the removal reactivates and cancels the removal, records who; undo after the removal is refused', async () => {
    const { h, o } = await open();
    const [a, b, c] = await h.deactivatableEmails(3);
    const later = new Date(o.clock.now() + 3 * DAY).toISOString();
    const workflow = await o.offboard(['email,leaveDate', `${a},`, `${b},`, `${c},${later}`]);
    o.startWorkers();
    await o.settle(workflow.id);

    const results = await o.system.undo(workflow.id, { users: [a!, c!], by: 'hr.operator' });
    expect(results?.map((r) => [r.email, r.result, r.reactivating])).toEqual([
      [a, 'undone', true],
      [c, 'undone', false],
    ]);
    await o.settle(workflow.id);
    const undone = await o.leaver(workflow.id, a!);
    expect(undone.phase).toBe('undone');
    expect(undone.undo?.by).toBe('hr.operator');
    expect((await h.system.store.getOutcome(workflow.reactivateBatch, undone.row))?.outcome).toBe('succeeded');
    expect((await h.system.store.getOutcome(workflow.removeBatch, undone.row))?.outcome).toBe('cancelled');
    expect(h.server.context.state.users.get(userId(h, a!))?.status).toBe('ACTIVE');

    await o.advance(8 * DAY);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, b!)).phase).toBe('removed');
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);
    expect(await o.changesOf(c!)).toEqual([]);
    const refused = await o.system.undo(workflow.id, { users: [b!], by: 'hr.operator' });
    expect(refused?.[0]?.result).toBe('refused');
    expect(refused?.[0]?.message).toMatch(/already removed/);
    expect((await o.system.store.get(workflow.id))?.state).toBe('finished');
  });

  it('undoes a whole offboarding: every leaver in the hold reactivated, nobody removed', async () => {
    const { h, o } = await open();
    const emails = await h.deactivatableEmails(3);
    const workflow = await o.offboard(['email', ...emails]);
    o.startWorkers();
    await o.settle(workflow.id);
    const results = await o.system.undo(workflow.id, { by: 'it.lead' });
    expect(results?.map((r) => r.result)).toEqual(['undone', 'undone', 'undone']);
    await o.settle(workflow.id);
    await o.advance(8 * DAY);
    await o.settle(workflow.id);
    for (const email of emails) {
      expect((await o.leaver(workflow.id, email)).phase).toBe('undone');
      expect(await o.changesOf(email)).toEqual(['deactivateUser', 'reactivateUser']);
    }
    expect((await h.system.store.get(workflow.reactivateBatch))?.state).toBe('finished');
    // Undone leavers may take over again: nobody of this offboarding is still leaving.
    expect(await o.system.store.leavingIn(userId(h, emails[0]!))).toBeUndefined();
  });

  it('ends a leaver failed, with the answer of the service, when the user is gone by the leave date', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + DAY).toISOString()}`]);
    o.startWorkers();
    await h.api.users.remove(userId(h, a!));
    await o.advance(DAY + 60_000);
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, a!);
    expect(leaver.phase).toBe('failed');
    expect(await h.system.store.getOutcome(workflow.deactivateBatch, leaver.row)).toMatchObject({ outcome: 'failed', category: 'ResourceNotFound', status: 404 });
    expect((await h.system.store.getOutcome(workflow.removeBatch, leaver.row))?.outcome).toBe('skipped');
    expect(await o.changesOf(a!)).toEqual(['removeUser']);
  });

  it('does not remove a user someone else reactivated during the hold: the removal ends skipped with the reason', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', a!]);
    o.startWorkers();
    await o.settle(workflow.id);
    await h.api.users.reactivate(userId(h, a!));
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, a!);
    expect(leaver.phase).toBe('skipped');
    const removal = await h.system.store.getOutcome(workflow.removeBatch, leaver.row);
    expect(removal?.outcome).toBe('skipped');
    expect(removal?.message).toMatch(/reactivated by someone else/);
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);
  });

  it('falls back to --transfer-to when the transfer target was deactivated during the hold, else fails the row with the reason', async () => {
    const { h, o } = await open();
    const [a, b, fallback] = await h.deactivatableEmails(3);
    const withFallback = await o.offboard(['email,transferTo', `${a},dana.whitfield@acme.example`], { transferTo: fallback! });
    const without = await o.offboard(['email,manager', `${b},dana.whitfield@acme.example`]);
    o.startWorkers();
    await o.settle(withFallback.id);
    await o.settle(without.id);
    await h.api.users.deactivate(userId(h, 'dana.whitfield@acme.example'));
    await o.advance(7 * DAY + 60_000);
    await o.settle(withFallback.id);
    await o.settle(without.id);

    const moved = await o.leaver(withFallback.id, a!);
    expect(moved.phase).toBe('removed');
    expect(moved.transferUsed?.email).toBe(fallback);
    expect(moved.steps.find((s) => s.step === 'recheck')?.message).toMatch(/dana.whitfield@acme.example is DEACTIVATED.*--transfer-to/);

    const stuck = await o.leaver(without.id, b!);
    expect(stuck.phase).toBe('failed');
    const removal = await h.system.store.getOutcome(without.removeBatch, stuck.row);
    expect(removal?.outcome).toBe('failed');
    expect(removal?.message).toMatch(/transfer target dana.whitfield@acme.example is DEACTIVATED, not ACTIVE and no --transfer-to fallback/);
    expect(await o.changesOf(b!)).toEqual(['deactivateUser']);
  });

  it('writes a report with one row per leaver: steps, times, state before, transfer target used', async () => {
    const { o } = await open();
    const workflow = await o.offboard(['email,transferTo', 'priya.shah@acme.example,dana.whitfield@acme.example', 'nobody@acme.example,']);
    o.startWorkers();
    await o.settle(workflow.id);
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    const rows = await o.system.reportRows(workflow.id);
    expect(rows).toHaveLength(2);
    const [priya, nobody] = rows!;
    expect(priya).toMatchObject({ email: 'priya.shah@acme.example', phase: 'removed', deactivate: 'succeeded', remove: 'succeeded', transferUsed: 'dana.whitfield@acme.example' });
    expect(priya?.handedOver).toBe('1 group(s) and owned sheets to dana.whitfield@acme.example');
    expect((priya?.stateBefore as { seats: unknown[] }).seats.length).toBeGreaterThan(0);
    expect(nobody).toMatchObject({ phase: 'refused', deactivate: 'skipped', remove: 'skipped' });
  });
});
