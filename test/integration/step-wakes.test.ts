import { afterEach, describe, expect, it } from 'vitest';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';
import { createOffboardingHarness, TEST_OFFBOARDING, type OffboardingHarness } from '../helpers/offboarding-harness.js';

const batches = useBatchHarnesses();
let o: OffboardingHarness | undefined;
afterEach(async () => {
  await o?.stopWorkers();
  await o?.system.close();
  o = undefined;
});

describe('a step learns of its row\'s end by an event, not a poll', () => {
  it('deactivates and removes with a zero hold while the steps\' fallback look is an hour away: each row\'s end wakes its step', async () => {
    const h = await batches.open({ rateLimit: 'off' });
    // Were the steps polling, each would look at its row again only after an hour: the settle below would time out.
    o = createOffboardingHarness(h, { ...TEST_OFFBOARDING, stepPollMs: 3_600_000 });
    const emails = await h.deactivatableEmails(3);
    const workflow = await o.offboard(['email', ...emails], { holdMs: 0, noUndoWindow: true });
    o.startWorkers();
    await o.waitFor(async () => (await o!.system.store.get(workflow.id))?.state === 'finished');
    await o.settle(workflow.id);
    for (const email of emails) {
      expect((await o.leaver(workflow.id, email)).phase, email).toBe('removed');
      expect(await o.changesOf(email), email).toEqual(['deactivateUser', 'removeUser']);
    }
  });
});
