import { describe, expect, it } from 'vitest';
import { DAY } from '../helpers/offboarding-harness.js';
import { queuedRehire } from '../helpers/queued-rehire.js';
import { changes, useSyncHarnesses } from '../helpers/sync-harness.js';

/**
 * A joiner whose reactivate row ended `unknown` (its answer lost, no read could tell). Found by the whole-system
 * simulation (seed 6643): the confirming reads answered 404 once a later offboarding had removed the user, and the
 * joiner waited on the row for good, `reactivating`, with nothing saying why; its seat batch stayed queued.
 */
describe('a joiner whose reactivation could not be confirmed', () => {
  const { open } = useSyncHarnesses();

  async function unconfirmedRehire() {
    const { h, s } = await open();
    const rehire = await queuedRehire(h, s);
    const { workflowId, workflow, persons, person, engine, userId, start } = rehire;
    // As the row processor leaves it: the joiner reactivating, their row saved and ended `unknown`.
    await persons.update(workflowId, person.row, (current) => ({ ...current, phase: 'reactivating', how: 'reactivate', userId }));
    const email = rehire.rehire;
    await engine.context.batches.saveRows(workflow.reactivateBatch!, [{ row: person.row, line: person.line, action: { action: 'reactivate', user: { email } }, actionName: 'reactivate', verdict: 'change', target: { userId, email } }]);
    const unknown = { batchId: workflow.reactivateBatch!, row: person.row, line: person.line, action: 'reactivate', outcome: 'unknown' as const, email, userId, message: 'users.reactivate: the answer was lost; it may have been applied', attempts: 3, finishedAt: new Date(start).toISOString() };
    expect(await engine.context.batches.recordOutcome(unknown)).toBe(true);
    return { h, s, ...rehire };
  }

  it('the user removed since: the joiner ends skipped, the row keeps its unknown, and every step batch ends', async () => {
    const { h, s, rehire, userId, workflowId, engine, workflow, persons, person } = await unconfirmedRehire();
    await h.api.users.remove(userId);
    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    try {
      await s.o.advance(DAY + 60_000);
      await s.settleAll();
      const joiner = await persons.get(workflowId, person.row);
      expect(joiner?.phase).toBe('skipped');
      expect(joiner?.reason).toMatch(/may have been applied and could not be confirmed, and .* is no longer a user of the organization/);
      expect((await engine.context.batches.getOutcome(workflow.reactivateBatch!, person.row))?.outcome).toBe('unknown');
      expect((await engine.context.batches.getOutcome(workflow.seatBatch, person.row))?.outcome).toBe('skipped');
      for (const batchId of [workflow.seatBatch, workflow.addBatch!, workflow.reactivateBatch!]) expect((await engine.context.batches.get(batchId))?.state).toBe('finished');
      expect(await changes(h, rehire)).toEqual(['removeUser']);
    } finally {
      await steps.close(2000);
    }
  });

  it('the user still there: the joiner waits with a note naming the retry, and goes on once the retry confirms the row', async () => {
    const { h, s, rehire, workflowId, engine, workflow, persons, person } = await unconfirmedRehire();
    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    const rows = h.startWorkers({ concurrency: 2 });
    try {
      await s.o.advance(DAY + 60_000);
      const note = `the reactivation may have been applied and could not be confirmed: run  seatflow retry ${workflow.reactivateBatch!}  to confirm it`;
      await s.o.waitFor(async () => (await persons.get(workflowId, person.row))?.notes.includes(note) === true);
      expect((await persons.get(workflowId, person.row))?.phase).toBe('reactivating');
      expect(await changes(h, rehire)).toEqual([]);

      expect((await h.system.control.retry(workflow.reactivateBatch!)).requeued).toBe(1);
      await s.settleAll();
      const joiner = await persons.get(workflowId, person.row);
      expect(joiner?.phase).toBe('joined');
      expect(joiner?.notes).not.toContain(note);
      expect(await changes(h, rehire)).toEqual(['reactivateUser']);
      expect((await engine.context.batches.get(workflow.seatBatch))?.state).toBe('finished');
    } finally {
      await Promise.all([steps.close(2000), rows.close(2000)]);
    }
  });
});
