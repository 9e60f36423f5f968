import { describe, expect, it } from 'vitest';
import { useOffboardingHarnesses } from '../helpers/offboarding-harness.js';

const { open } = useOffboardingHarnesses();

describe('an offboarding step whose row ended unknown', () => {
  it('keeps the leaver waiting (not failed) with a note saying how to settle it; seatflow retry confirms and the workflow goes on', async () => {
    const { h, o } = await open();
    const [leaverEmail] = await h.deactivatableEmails(1);
    const workflow = await o.offboard(['email', leaverEmail!]);
    // What a worker leaves when an attempt may have applied and even the later confirm-only reads failed.
    await h.system.store.recordOutcome({
      batchId: workflow.deactivateBatch,
      row: 1,
      line: 2,
      action: 'deactivate',
      outcome: 'unknown',
      email: leaverEmail!,
      category: 'ServiceUnavailable',
      message: 'timed out; it may have been applied, and 3 later reads could not tell',
      attempts: 5,
      finishedAt: new Date().toISOString(),
    });
    o.startWorkers();
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail!)).notes.some((note) => note.includes(`seatflow retry ${workflow.deactivateBatch}`)));
    const waiting = await o.leaver(workflow.id, leaverEmail!);
    expect(waiting.phase).toBe('deactivating');
    expect(await o.changesOf(leaverEmail!)).toEqual([]);

    const { requeued } = await h.system.control.retry(workflow.deactivateBatch);
    expect(requeued).toBe(1);
    await o.waitFor(async () => (await o.leaver(workflow.id, leaverEmail!)).phase === 'holding');
    const held = await o.leaver(workflow.id, leaverEmail!);
    expect(held.notes.filter((note) => note.includes('could not be confirmed'))).toEqual([]);
    expect(await o.changesOf(leaverEmail!)).toEqual(['deactivateUser']);
  });
});
