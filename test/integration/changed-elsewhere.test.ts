import { describe, expect, it } from 'vitest';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('a leaver changed elsewhere is re-checked at once (the engine’s changedElsewhere)', () => {
  it('a leaver an admin reactivates during the hold ends skipped at once and is never removed; a deactivation made elsewhere is kept as a note', async () => {
    const { h, o } = await open();
    const [a, b] = await h.deactivatableEmails(2);
    const later = new Date(o.clock.now() + 3 * DAY).toISOString();
    const workflow = await o.offboard(['email,leaveDate', `${a},`, `${b},${later}`]);
    o.startWorkers();
    await o.settle(workflow.id);
    const idOf = (email: string) => [...h.server.context.state.users.values()].find((u) => u.email === email)!.id;
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');

    // An admin reactivates a in the Admin Center; b is deactivated there before the leave date.
    await h.api.users.reactivate(idOf(a!));
    await h.api.users.deactivate(idOf(b!));
    const at = new Date(o.clock.now()).toISOString();
    expect(await o.system.engine.changedElsewhere(idOf(a!), { event: 'user.reactivated', at, by: 'elena.garcia@acme.example' })).toEqual([{ workflowId: workflow.id, row: 1, result: 'ended' }]);
    expect(await o.system.engine.changedElsewhere(idOf(a!), { event: 'user.reactivated', at, by: 'elena.garcia@acme.example' })).toEqual([]);
    expect(await o.system.engine.changedElsewhere(idOf(b!), { event: 'user.deactivated', at })).toEqual([{ workflowId: workflow.id, row: 2, result: 'noted' }]);

    const leaverA = await o.leaver(workflow.id, a!);
    expect(leaverA.phase).toBe('skipped');
    expect(leaverA.reason).toBe(`user.reactivated outside seatflow by elena.garcia@acme.example at ${at}: not removed (reactivated during the hold)`);
    expect((await h.system.store.getOutcome(workflow.removeBatch, leaverA.row))?.outcome).toBe('skipped');
    expect((await o.system.steps({ workflowId: workflow.id })).map((step) => [step.email, step.step])).toEqual([[b, 'deactivate']]);
    expect((await o.leaver(workflow.id, b!)).notes).toContain(`user.deactivated outside seatflow at ${at}`);

    await o.advance(11 * DAY);
    await o.settle(workflow.id);
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);
    // b's deactivation on the date finds it done (unchanged); b is removed after the hold that starts then.
    expect(await o.changesOf(b!)).toEqual(['deactivateUser']);
    expect((await o.leaver(workflow.id, b!)).phase).toBe('holding');
    await o.advance(8 * DAY);
    await o.settle(workflow.id);
    expect(await o.changesOf(b!)).toEqual(['deactivateUser', 'removeUser']);
    expect(await o.changesOf(a!)).toEqual(['deactivateUser', 'reactivateUser']);
  });
});
