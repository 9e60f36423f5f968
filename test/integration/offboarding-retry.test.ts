import { describe, expect, it } from 'vitest';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { DAY, useOffboardingHarnesses } from '../helpers/offboarding-harness.js';
import { runSeatflow } from '../helpers/run-seatflow.js';

const { open, batches } = useOffboardingHarnesses();

function userId(h: BatchHarness, email: string): number {
  const user = [...h.server.context.state.users.values()].find((u) => u.email === email);
  if (user === undefined) throw new Error(`no user ${email}`);
  return user.id;
}

/** `seatflow retry BATCH` as an operator runs it, on the harness's Redis, prefix and target. */
function retry(h: BatchHarness, batchId: string) {
  return runSeatflow(['retry', batchId], { REDIS_URL: batches.redis().url, SEATFLOW_QUEUE_PREFIX: h.prefix, SMARTSHEET_API_BASE: h.server.url });
}

describe('seatflow retry of an offboarding step batch', () => {
  it('runs a failed removal again (re-check, then remove) and the leaver ends removed; a retry of nothing leaves the batch as it was', async () => {
    const { h, o } = await open();
    const [leaver] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email,transferTo', `${leaver},dana.whitfield@acme.example`]);
    o.startWorkers();
    await o.settle(workflow.id);
    // The transfer target is deactivated during the hold: the removal fails at its re-check, with no row run.
    await h.api.users.deactivate(userId(h, 'dana.whitfield@acme.example'));
    await o.advance(7 * DAY + 60_000);
    await o.settle(workflow.id);
    expect((await o.leaver(workflow.id, leaver!)).phase).toBe('failed');
    const failed = await h.system.store.get(workflow.removeBatch);
    expect(failed).toMatchObject({ state: 'finished', counts: { failed: 1 } });

    // Requeuing rows finds none here (the re-check failed before a row existed): the batch stays as it was, its
    // finished time too. Before, the retry said "nothing to retry" and moved that time.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await h.system.control.retry(workflow.removeBatch)).toEqual({ requeued: 0, resumed: 0, leftToSteps: 0 });
    expect(await h.system.store.get(workflow.removeBatch)).toEqual(failed);
    const nothing = await retry(h, workflow.deactivateBatch);
    expect(nothing.stdout).toContain('nothing to retry');

    // The operator fixes the cause and retries the step batch: the step re-checks, then removes.
    await h.api.users.reactivate(userId(h, 'dana.whitfield@acme.example'));
    const again = await retry(h, workflow.removeBatch);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('1 leaver whose removal (re-check, then remove) failed run it again now');
    await o.settle(workflow.id);
    const removed = await o.leaver(workflow.id, leaver!);
    expect(removed.phase).toBe('removed');
    expect(removed.transferUsed?.email).toBe('dana.whitfield@acme.example');
    expect(removed.steps.map((step) => `${step.step}:${step.outcome}`)).toContain('retry:holding');
    expect(await h.system.store.get(workflow.removeBatch)).toMatchObject({ state: 'finished', counts: { succeeded: 1, failed: 0 } });
    expect((await h.system.store.getOutcome(workflow.reactivateBatch, removed.row))?.message).toBe('removed: nothing to undo');
    expect((await o.system.store.get(workflow.id))?.state).toBe('finished');
    expect(await o.changesOf(leaver!)).toEqual(['deactivateUser', 'removeUser']);
  });

  it('runs a failed reactivation again: the undone leaver is reactivated once', async () => {
    const { h, o } = await open();
    const [leaver] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', leaver!]);
    o.startWorkers();
    await o.settle(workflow.id);
    await o.stopWorkers();
    await o.system.undo(workflow.id, { by: 'test' });
    // What the row processor leaves when the service refused the reactivation.
    await h.system.store.recordOutcome({
      batchId: workflow.reactivateBatch, row: 1, line: 2, action: 'reactivate', outcome: 'failed', email: leaver!,
      category: 'InvalidRequest', status: 400, message: 'refused for a passing reason', attempts: 1, finishedAt: new Date().toISOString(),
    });
    o.startWorkers();
    await o.settle(workflow.id);
    expect((await h.system.store.getOutcome(workflow.restoreBatch!, 1))?.message).toBe('not reactivated (failed): no seat to restore');
    expect(await o.changesOf(leaver!)).toEqual(['deactivateUser']);

    const again = await retry(h, workflow.reactivateBatch);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('1 leaver whose reactivation failed run it again now');
    await o.settle(workflow.id);
    expect(await o.changesOf(leaver!)).toEqual(['deactivateUser', 'reactivateUser']);
    expect((await h.system.store.getOutcome(workflow.reactivateBatch, 1))?.outcome).toBe('succeeded');
    expect((await h.system.store.getOutcome(workflow.restoreBatch!, 1))?.outcome).toBe('skipped');
  });

  it('runs a failed deactivation again and the leaver holds; a leaver undone before the leave date is never deactivated by it', async () => {
    const { h, o } = await open();
    const [leaver, undone] = await h.deactivatableEmails(2);
    const workflow = await o.offboard(['email,leaveDate', `${leaver!},`, `${undone!},2031-01-05T00:00:00Z`]);
    await o.system.undo(workflow.id, { by: 'test', users: [undone!] });
    // What the row processor leaves when the service refused the deactivation (the step then ends the leaver failed).
    await h.system.store.recordOutcome({
      batchId: workflow.deactivateBatch, row: 1, line: 2, action: 'deactivate', outcome: 'failed', email: leaver!,
      category: 'InvalidRequest', status: 400, message: 'refused for a passing reason', attempts: 1, finishedAt: new Date().toISOString(),
    });
    o.startWorkers();
    await o.waitFor(async () => (await o.leaver(workflow.id, leaver!)).phase === 'failed');
    await o.settle(workflow.id);

    const again = await retry(h, workflow.deactivateBatch);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('1 leaver whose deactivation (state recorded, then deactivate) failed run it again now');
    await o.waitFor(async () => (await o.leaver(workflow.id, leaver!)).phase === 'holding');
    await o.settle(workflow.id);
    expect(await o.changesOf(leaver!)).toEqual(['deactivateUser']);
    expect(await o.changesOf(undone!)).toEqual([]);
    expect((await o.leaver(workflow.id, undone!)).phase).toBe('undone');
    expect(await h.system.store.getOutcome(workflow.removeBatch, 1)).toBeUndefined();
  });
});
