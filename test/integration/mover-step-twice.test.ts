import { describe, expect, it } from 'vitest';
import { createMoverLifecycle, MOVE_STEP } from '../../src/sync/mover-lifecycle.js';
import { moverStateSchema } from '../../src/sync/hr-workflow-state.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { rowJobId } from '../../src/queue/row-job.js';
import { MOVER, moverToSales } from '../helpers/mover-to-sales.js';
import { changes, seatOf, useSyncHarnesses } from '../helpers/sync-harness.js';

class WaitsForRow extends Error {}

describe('a mover step run twice at once (its lock lost in a Redis restart)', () => {
  const { open } = useSyncHarnesses();

  it('queues the seat row from the run that lost the race to move the person: the winner may have died before queueing it', async () => {
    const { h, s } = await open();
    const { policy, nightTwo } = await moverToSales(h, s);
    const two = await s.sync(nightTwo, policy, { acceptMissing: true });
    if (two.kind !== 'planned' || two.applied?.movers === undefined) throw new Error('the mover was not queued');
    const { workflowId } = two.applied.movers;
    const { engine } = s.o.system;
    const lifecycle = createMoverLifecycle(engine.context);
    const persons = createPersonStore(engine.context.redis, engine.context.keys, moverStateSchema);
    const [scheduled] = await persons.all(workflowId);
    const workflow = await lifecycle.records.get(workflowId);
    if (scheduled === undefined || workflow === undefined) throw new Error('the mover workflow was not kept');
    // The other run read the person scheduled too, moved them, and died before it queued the seat row.
    await persons.update(workflowId, scheduled.row, (current) => ({ ...current, phase: 'moving' }));
    const ahead = scheduled.dueAt - h.server.context.clock.now();
    if (ahead > 0) h.server.context.clock.advance(ahead + 1000);

    const run = lifecycle.runStep({
      data: { workflowId, row: scheduled.row, step: MOVE_STEP, dueAt: scheduled.dueAt },
      workflow,
      person: scheduled,
      api: h.api,
      waiter: { queue: engine.context.stepQueue.name, jobId: 'this-run' },
      waitForRow: async () => {
        throw new WaitsForRow();
      },
    });
    await expect(run).rejects.toBeInstanceOf(WaitsForRow);
    expect((await engine.context.batches.rowLifecycle.statusOf(workflow.seatBatch, scheduled.row)).state).toBe('queued');
    expect(await engine.context.rowsQueue.getJob(rowJobId(workflow.seatBatch, scheduled.row))).toBeDefined();

    s.o.startWorkers();
    await s.settleAll();
    expect((await persons.get(workflowId, scheduled.row))?.phase).toBe('moved');
    expect(await changes(h, MOVER)).toEqual(['downgradeUser']);
    expect(seatOf(h, MOVER)).toBe('CONTRIBUTOR');
  });
});
