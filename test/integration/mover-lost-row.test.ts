import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { moverStateSchema } from '../../src/sync/hr-workflow-state.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { changes, seatOf, useSyncHarnesses } from '../helpers/sync-harness.js';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' }, leavers: { hold: '7d' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';
const MOVER = 'jordan.lee@acme.example';

describe('a mover whose seat row a Redis failover lost', () => {
  const { open } = useSyncHarnesses();

  it('judges the seat again and moves it once: the phase said moving, the seat batch had neither the row nor its end', async () => {
    const { h, s } = await open();
    const policy = s.writePolicy('lifecycle.json', POLICY);
    const today = new Date(h.server.context.clock.now()).toISOString().slice(0, 10);
    const generated = () => `${new Date(h.server.context.clock.now()).toISOString().slice(0, 19)}Z`;
    const row = (department: string, effective = '') => ['E1', MOVER, 'Active', '2020-01-06', '', department, 'Engineer', '', 'Berlin', effective, generated()].join(',');
    const one = await s.sync(s.writeExport('hr-1.csv', [HEADER, row('Engineering')]), policy, { acceptMissing: true });
    if (one.kind !== 'planned' || !one.disposition.applied) throw new Error('night 1 was not applied');
    h.server.context.clock.advance(60_000);
    const two = await s.sync(s.writeExport('hr-2.csv', [HEADER, row('Sales', today)]), policy, { acceptMissing: true });
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
