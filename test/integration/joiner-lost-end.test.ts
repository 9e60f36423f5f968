import { describe, expect, it } from 'vitest';
import { DAY } from '../helpers/offboarding-harness.js';
import { queuedRehire } from '../helpers/queued-rehire.js';
import { changes, useSyncHarnesses } from '../helpers/sync-harness.js';

describe('a joiner whose route end a Redis failover lost', () => {
  const { open } = useSyncHarnesses();

  async function queuedRehireOpen() {
    const { h, s } = await open();
    return { h, s, ...(await queuedRehire(h, s)) };
  }

  it('a rehire reactivating whose "add skipped" was lost: the add batch still ends as the joiner ends', async () => {
    const { h, s, rehire, workflowId, engine, workflow, persons, person } = await queuedRehireOpen();

    // The step alone: it chooses the route (reactivate), records the add batch's end, and waits for the row.
    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    const rows: { close(graceMs: number): Promise<void> }[] = [];
    try {
      await s.o.advance(DAY + 60_000);
      await s.o.waitFor(async () => (await persons.get(workflowId, person!.row))?.phase === 'reactivating' && (await engine.context.batches.hasOutcome(workflow.addBatch!, person!.row)));
      // As after a failover that kept the phase and lost that end.
      expect(await engine.context.batches.forgetOutcome(workflow.addBatch!, person!.row, { outcome: 'skipped', finishedAt: (await engine.context.batches.getOutcome(workflow.addBatch!, person!.row))?.finishedAt ?? '' }, 'planned')).toBe(true);
      rows.push(h.startWorkers({ concurrency: 2 }));
      await s.settleAll();
      expect((await persons.get(workflowId, person!.row))?.phase).toBe('joined');
      expect(await changes(h, rehire)).toEqual(['reactivateUser']);
      expect((await engine.context.batches.getOutcome(workflow.addBatch!, person!.row))?.outcome).toBe('skipped');
      expect((await engine.context.batches.get(workflow.addBatch!))?.state).toBe('finished');
    } finally {
      await Promise.all([steps.close(2000), ...rows.map((pool) => pool.close(2000))]);
    }
  });

  it('a rehire whose reactivation was refused, the run that failed them killed before the step ends: a later run of the step writes them', async () => {
    // Found by the whole-system simulation (Sentinel seed 6602): the reactivation answered 403 9003, the run moved the
    // joiner to failed and was SIGKILLed before it ended the seat batch; the step, run again, found the joiner closed
    // and only closed them, so the seat batch stayed queued (0/1) for good.
    const { h, s, rehire, userId, start, workflowId, engine, workflow, persons, person } = await queuedRehireOpen();
    // As the killed run left it: the reactivation refused and recorded, the joiner failed, no other step batch ended.
    const refused = { batchId: workflow.reactivateBatch!, row: person!.row, line: person!.line, action: 'reactivate', outcome: 'failed' as const, email: rehire, userId, status: 403, errorCode: 9003, message: 'deactivated more than 30 days ago', attempts: 1, finishedAt: new Date(start).toISOString() };
    expect(await engine.context.batches.recordOutcome(refused)).toBe(true);
    await persons.update(workflowId, person!.row, (current) => ({ ...current, phase: 'failed', how: 'reactivate', userId, reason: 'reactivation failed: deactivated more than 30 days ago', steps: [...current.steps, { step: 'reactivate', outcome: 'failed', at: new Date(start).toISOString(), message: 'deactivated more than 30 days ago' }] }));

    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    try {
      await s.o.advance(DAY + 60_000);
      await s.settleAll();
      const outcomeOf = async (batchId: string) => (await engine.context.batches.getOutcome(batchId, person!.row))?.outcome;
      expect(await outcomeOf(workflow.seatBatch)).toBe('skipped');
      expect(await outcomeOf(workflow.addBatch!)).toBe('skipped');
      expect(await outcomeOf(workflow.reactivateBatch!)).toBe('failed');
      for (const batchId of [workflow.seatBatch, workflow.addBatch!, workflow.reactivateBatch!]) expect((await engine.context.batches.get(batchId))?.state).toBe('finished');
      expect(await changes(h, rehire)).toEqual([]);
    } finally {
      await steps.close(2000);
    }
  });

  it('a rehire reactivating whose reactivate row was lost: the step saves the row again from the joiner and runs it', async () => {
    // Found by the whole-system simulation (Sentinel seed 3402): the failover kept the joiner's phase (reactivating)
    // and dropped the row saved beside it; every run of the step found no row to run, and the rehire never came back.
    const { h, s, rehire, userId, workflowId, engine, workflow, persons, person } = await queuedRehireOpen();
    // As a failover leaves it: the route chosen and recorded, the reactivate row never saved.
    await persons.update(workflowId, person!.row, (current) => ({ ...current, phase: 'reactivating', how: 'reactivate', userId }));
    expect(await engine.context.batches.getRow(workflow.reactivateBatch!, person!.row)).toBeUndefined();

    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    const rows = h.startWorkers({ concurrency: 2 });
    try {
      await s.o.advance(DAY + 60_000);
      await s.settleAll();
      expect((await persons.get(workflowId, person!.row))?.phase).toBe('joined');
      expect(await changes(h, rehire)).toEqual(['reactivateUser']);
      expect((await engine.context.batches.getOutcome(workflow.reactivateBatch!, person!.row))?.outcome).toBe('succeeded');
    } finally {
      await Promise.all([steps.close(2000), rows.close(2000)]);
    }
  });
});
