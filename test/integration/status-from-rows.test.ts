import { describe, expect, it } from 'vitest';
import { formatOffboardingStatus } from '../../src/workflow/offboarding-status.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

/**
 * Status says what happened (the rows' states and outcomes), not what was intended (the person's phase): an undo
 * whose reactivation failed is no "undone", and undo never says nothing was done when a row acted.
 */
describe('status and undo from what the rows did', () => {
  it('shows an undo whose reactivation failed as undo-failed, with the service’s reason, on the leaver and in the counts', async () => {
    const { h, o } = await open();
    const [a, b] = await h.deactivatableEmails(2);
    const workflow = await o.offboard(['email', a!, b!]);
    o.startWorkers();
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');
    // During the hold another batch (or an admin) removes the user: the reactivation an undo queues cannot succeed.
    const removed = [...h.server.context.state.users.values()].find((user) => user.email === a);
    await h.api.users.remove(removed!.id);

    const undo = await o.system.undo(workflow.id, { by: 'hr.operator' });
    expect(undo?.map((result) => [result.email, result.result, result.reactivating])).toEqual([
      [a, 'undone', true],
      [b, 'undone', true],
    ]);
    await o.settle(workflow.id);
    const status = await o.system.status(workflow.id);
    const views = new Map(status?.leavers.map((view) => [view.email, view]));
    expect(views.get(a!)?.phase).toBe('undone');
    expect(views.get(a!)?.status).toBe('undo-failed');
    expect(views.get(a!)?.reason).toMatch(/^the reactivation failed: /);
    expect(views.get(b!)?.status).toBe('undone');
    expect(status?.statuses).toEqual({ 'undo-failed': 1, undone: 1 });
    expect(formatOffboardingStatus(status!)).toMatch(new RegExp(`${a!.replace('.', '\\.')}\\s+undo-failed`));
  });

  it('undo of a leaver whose deactivation was made while the leaver still waited for the date reactivates instead of saying "never deactivated"', async () => {
    const { h, o } = await open();
    const [a] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,leaveDate', `${a},${new Date(o.clock.now() + 10 * DAY).toISOString()}`]);
    o.startWorkers();
    await o.settle(workflow.id);
    const leaver = await o.leaver(workflow.id, a!);
    expect(leaver.phase).toBe('scheduled');
    // What the early runs of the lost-row sweep left behind: the deactivate row done, the leaver still scheduled.
    const user = [...h.server.context.state.users.values()].find((u) => u.email === a);
    await h.api.users.deactivate(user!.id);
    await h.system.store.recordOutcome({ batchId: workflow.deactivateBatch, row: leaver.row, line: leaver.line, action: 'deactivate', outcome: 'succeeded', email: a!, attempts: 1, finishedAt: new Date(o.clock.now()).toISOString() });

    const status = await o.system.status(workflow.id);
    expect(status?.leavers[0]?.happened).toEqual([expect.stringMatching(/^deactivate was made at .*, before its due instant /)]);
    const [undone] = (await o.system.undo(workflow.id, { by: 'hr.operator' })) ?? [];
    expect(undone?.result).toBe('undone');
    expect(undone?.reactivating).toBe(true);
    expect(undone?.message).toMatch(/^the deactivation had already been made \(at .*\); removal cancelled; reactivation queued$/);
    await o.settle(workflow.id);
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);
    expect((await o.system.status(workflow.id))?.leavers[0]?.status).toBe('undone');
  });
});
