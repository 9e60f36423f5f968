import { describe, expect, it } from 'vitest';
import { moverStateSchema } from '../../src/sync/hr-workflow-state.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { MOVER, moverToSales } from '../helpers/mover-to-sales.js';
import { changes, seatOf, useSyncHarnesses } from '../helpers/sync-harness.js';

describe('a mover whose seat row a Redis failover lost', () => {
  const { open } = useSyncHarnesses();

  it('judges the seat again and moves it once: the phase said moving, the seat batch had neither the row nor its end', async () => {
    const { h, s } = await open();
    const { policy, nightTwo } = await moverToSales(h, s);
    const two = await s.sync(nightTwo, policy, { acceptMissing: true });
    if (two.kind !== 'planned' || two.applied?.movers === undefined) throw new Error('the mover was not queued');
    const { workflowId } = two.applied.movers;
    const { engine } = s.o.system;
    const persons = createPersonStore(engine.context.redis, engine.context.keys, moverStateSchema);
    const [person] = await persons.all(workflowId);
    // As a failover leaves it: the phase moved on, the seat row saved just before it gone.
    await persons.update(workflowId, person!.row, (current) => ({ ...current, phase: 'moving' }));
    s.o.startWorkers();
    await s.settleAll();
    expect((await persons.get(workflowId, person!.row))?.phase).toBe('moved');
    expect(await changes(h, MOVER)).toEqual(['downgradeUser']);
    expect(seatOf(h, MOVER)).toBe('CONTRIBUTOR');
  });
});
