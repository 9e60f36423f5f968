import { describe, expect, it } from 'vitest';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('offboarding', () => {
  it('deactivates now for no or a past leave date, on the date for a future one, and removes with transfer after the hold', async () => {
    const { h, o } = await open();
    const [a, b, c] = await h.deactivatableEmails(3);
    const future = new Date(o.clock.now() + 2 * DAY).toISOString();
    const past = new Date(o.clock.now() - DAY).toISOString();
    const workflow = await o.offboard(['email,leaveDate,transferTo', `${a},${future},dana.whitfield@acme.example`, `${b},,`, `${c},${past},`, 'priya.shah@acme.example,,dana.whitfield@acme.example']);
    o.startWorkers();
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('scheduled');
    for (const email of [b!, c!, 'priya.shah@acme.example']) {
      const leaver = await o.leaver(workflow.id, email);
      expect(leaver.phase, email).toBe('holding');
      expect(leaver.stateBefore?.status).toBe('ACTIVE');
    }
    // Dana, the target, is a group admin: whatever groups Priya owns go to her, so the plan did not read them; the
    // re-check before the removal reads them, and the leaver records what went over.
    expect((await o.leaver(workflow.id, 'priya.shah@acme.example')).stateBefore?.groupsOwned).toBeUndefined();

    await o.advance(2 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');

    // b, c and priya were deactivated at the start: their hold ends 7 days on; a's two days later.
    await o.advance(5 * DAY);
    await o.settle(workflow.id);
    for (const email of [b!, c!, 'priya.shah@acme.example']) expect((await o.leaver(workflow.id, email)).phase, email).toBe('removed');
    expect((await o.leaver(workflow.id, a!)).phase).toBe('holding');
    await o.advance(2 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, a!)).phase).toBe('removed');
    expect((await o.system.store.get(workflow.id))?.state).toBe('finished');

    const priya = await o.leaver(workflow.id, 'priya.shah@acme.example');
    expect(priya.transferUsed?.email).toBe('dana.whitfield@acme.example');
    const group = [...h.server.context.state.groups.values()].find((g) => g.name === 'Data Platform');
    const dana = [...h.server.context.state.users.values()].find((u) => u.email === 'dana.whitfield@acme.example');
    expect(group?.ownerId).toBe(dana?.id);
    expect(priya.groupsAtRemoval).toEqual([{ id: group?.id, name: 'Data Platform' }]);
    for (const email of [a!, b!, c!, 'priya.shah@acme.example']) expect(await o.changesOf(email), email).toEqual(['deactivateUser', 'removeUser']);
  });
});
