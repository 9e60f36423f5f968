import { describe, expect, it } from 'vitest';
import { moverStateSchema, type HrRecord, type MoverState } from '../../src/sync/hr-workflow-state.js';
import { createMoverLifecycle, MOVE_STEP } from '../../src/sync/mover-lifecycle.js';
import type { PlannedRow } from '../../src/plan/planned-row.js';
import { rowJobId } from '../../src/queue/row-job.js';
import type { OffboardingSystem } from '../../src/workflow/offboarding-system.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import type { BatchHarness } from '../helpers/batch-harness.js';
import { MOVER, moverToSales } from '../helpers/mover-to-sales.js';
import { changes, seatOf, useSyncHarnesses } from '../helpers/sync-harness.js';

class WaitsForRow extends Error {}

/** One run of the mover's step, as a step worker hands it over; its wait for the row throws WaitsForRow. */
function runMoveStep(h: BatchHarness, engine: OffboardingSystem['engine'], lifecycle: ReturnType<typeof createMoverLifecycle>, workflow: HrRecord, person: MoverState) {
  return lifecycle.runStep({
    data: { workflowId: workflow.id, row: person.row, step: MOVE_STEP, dueAt: person.dueAt },
    workflow,
    person,
    api: h.api,
    waiter: { queue: engine.context.stepQueue.name, jobId: 'this-run' },
    waitForRow: async () => {
      throw new WaitsForRow();
    },
  });
}

type Open = ReturnType<typeof useSyncHarnesses>['open'];

/** Night two synced for the mover: their workflow queued, no worker started yet. */
async function moverQueued(open: Open) {
  const { h, s } = await open();
  const { policy, nightTwo } = await moverToSales(h, s);
  const two = await s.sync(nightTwo, policy, { acceptMissing: true });
  if (two.kind !== 'planned' || two.applied?.movers === undefined) throw new Error('the mover was not queued');
  const { workflowId } = two.applied.movers;
  const { engine } = s.o.system;
  const persons = createPersonStore(engine.context.redis, engine.context.keys, moverStateSchema);
  const [person] = await persons.all(workflowId);
  if (person === undefined) throw new Error('the mover workflow has no person');
  return { h, s, engine, persons, workflowId, person };
}

describe('a mover whose seat row was lost on the way', () => {
  const { open } = useSyncHarnesses();

  /** The mover queued, and how workers run them to the end. */
  async function queuedMover() {
    const { h, s, engine, persons, workflowId, person } = await moverQueued(open);
    /** Workers run it to the end: moved, the seat downgraded once. */
    const runsToTheEnd = async () => {
      s.o.startWorkers();
      await s.settleAll();
      expect((await persons.get(workflowId, person.row))?.phase).toBe('moved');
      expect(await changes(h, MOVER)).toEqual(['downgradeUser']);
      expect(seatOf(h, MOVER)).toBe('CONTRIBUTOR');
    };
    return { h, engine, persons, workflowId, person, runsToTheEnd };
  }

  it('judges the seat again and moves it once when a Redis failover lost it: the phase said moving, the seat batch had neither the row nor its end', async () => {
    const { persons, workflowId, person, runsToTheEnd } = await queuedMover();
    // As a failover leaves it: the phase moved on, the seat row saved just before it gone.
    await persons.update(workflowId, person.row, (current) => ({ ...current, phase: 'moving' }));
    await runsToTheEnd();
  });

  it('ends the seat batch from a later run of the step when the run that ended the mover died before ending it', async () => {
    // As a joiner's did in the whole-system simulation (seed 6602): the phase written, the worker killed before the end.
    const { h, engine, persons, workflowId, person } = await queuedMover();
    const lifecycle = createMoverLifecycle(engine.context);
    const workflow = (await lifecycle.records.get(workflowId))!;
    const message = 'no longer a user of the organization';
    await persons.update(workflowId, person.row, (current) => ({ ...current, phase: 'skipped', reason: message, steps: [...current.steps, { step: MOVE_STEP, outcome: 'skipped', at: new Date().toISOString(), message }] }));
    const ahead = person.dueAt - h.server.context.clock.now();
    if (ahead > 0) h.server.context.clock.advance(ahead + 1000);
    const closed = (await persons.get(workflowId, person.row))!;
    const fails = async () => {
      throw new Error('a closed mover waits for no row');
    };
    expect(await lifecycle.runStep({ data: { workflowId, row: person.row, step: MOVE_STEP, dueAt: person.dueAt }, workflow, person: closed, api: h.api, waiter: { queue: engine.context.stepQueue.name, jobId: 'this-run' }, waitForRow: fails })).toBe('skipped');
    expect(await engine.context.batches.getOutcome(workflow.seatBatch, person.row)).toMatchObject({ outcome: 'skipped', message });
    expect((await engine.context.batches.get(workflow.seatBatch))?.state).toBe('finished');
    expect(await changes(h, MOVER)).toEqual([]);
  });

  it('queues it from the run that lost the race to move the person, when the step ran twice at once (a lock lost in a Redis restart): the winner may have died before queueing it', async () => {
    const { h, engine, persons, workflowId, person: scheduled, runsToTheEnd } = await queuedMover();
    const lifecycle = createMoverLifecycle(engine.context);
    const workflow = await lifecycle.records.get(workflowId);
    if (workflow === undefined) throw new Error('the mover workflow was not kept');
    // The other run read the person scheduled too, moved them, and died before it queued the seat row.
    await persons.update(workflowId, scheduled.row, (current) => ({ ...current, phase: 'moving' }));
    const ahead = scheduled.dueAt - h.server.context.clock.now();
    if (ahead > 0) h.server.context.clock.advance(ahead + 1000);

    const run = runMoveStep(h, engine, lifecycle, workflow, scheduled);
    await expect(run).rejects.toBeInstanceOf(WaitsForRow);
    expect((await engine.context.batches.rowLifecycle.statusOf(workflow.seatBatch, scheduled.row)).state).toBe('queued');
    expect(await engine.context.rowsQueue.getJob(rowJobId(workflow.seatBatch, scheduled.row))).toBeDefined();
    await runsToTheEnd();
  });
});

describe('a mover whose seat change could not be confirmed', () => {
  const { open } = useSyncHarnesses();

  /** The mover moving, their downgrade row saved and ended `unknown`, the step due: a run of the step, its wait throwing. */
  async function unconfirmedMover() {
    const { h, engine, workflowId, person } = await moverQueued(open);
    const lifecycle = createMoverLifecycle(engine.context);
    const workflow = (await lifecycle.records.get(workflowId))!;
    const ahead = person.dueAt - h.server.context.clock.now();
    if (ahead > 0) h.server.context.clock.advance(ahead + 1000);
    const moving = (await lifecycle.persons.update(workflowId, person.row, (current) => ({ ...current, phase: 'moving' })))!;
    const row: PlannedRow = { row: person.row, line: person.line, action: { action: 'downgrade', user: { email: MOVER }, seatType: 'CONTRIBUTOR' as const }, actionName: 'downgrade', verdict: 'change', target: { userId: person.userId!, email: MOVER } };
    await engine.context.batches.saveRows(workflow.seatBatch, [row]);
    const unknown = { batchId: workflow.seatBatch, row: person.row, line: person.line, action: 'downgrade', outcome: 'unknown' as const, email: MOVER, userId: person.userId!, message: 'the answer was lost; it may have been applied', attempts: 3, finishedAt: new Date().toISOString() };
    expect(await engine.context.batches.recordOutcome(unknown)).toBe(true);
    const runStep = () => runMoveStep(h, engine, lifecycle, workflow, moving);
    return { h, engine, lifecycle, workflow, workflowId, person, runStep };
  }

  it('waits with a note naming the retry while the user is there', async () => {
    const { lifecycle, workflow, workflowId, person, runStep } = await unconfirmedMover();
    await expect(runStep()).rejects.toBeInstanceOf(WaitsForRow);
    const mover = await lifecycle.persons.get(workflowId, person.row);
    expect(mover?.phase).toBe('moving');
    expect(mover?.notes).toContain(`the seat change may have been applied and could not be confirmed: run  seatflow retry ${workflow.seatBatch}  to confirm it`);
  });

  it('ends skipped when the user has left the organization since: the row keeps its unknown', async () => {
    const { h, engine, lifecycle, workflow, workflowId, person, runStep } = await unconfirmedMover();
    const admin = [...h.server.context.state.users.values()].find((user) => user.email === 'admin@acme.example')!;
    await h.api.users.remove(person.userId!, { transferTo: admin.id });
    expect(await runStep()).toBe('skipped');
    expect((await lifecycle.persons.get(workflowId, person.row))?.reason).toMatch(/no longer a user of the organization/);
    expect((await engine.context.batches.getOutcome(workflow.seatBatch, person.row))?.outcome).toBe('unknown');
    expect((await engine.context.batches.get(workflow.seatBatch))?.state).toBe('finished');
  });
});
