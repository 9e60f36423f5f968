import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/server/demo/demo-organization.js';
import { hrRecordSchema, joinerStateSchema } from '../../src/sync/hr-workflow-state.js';
import { JOINERS } from '../../src/sync/joiner-lifecycle.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { createRecordStore } from '../../src/workflow/record-store.js';
import { DAY } from '../helpers/offboarding-harness.js';
import { changes, rehireCandidate, useSyncHarnesses } from '../helpers/sync-harness.js';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [], default: 'MEMBER' }, leavers: { hold: '7d', transferTo: 'admin@acme.example' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';

describe('a joiner whose route end a Redis failover lost', () => {
  const { open } = useSyncHarnesses();

  /** A rehire starting tomorrow, queued by the second night's sync; no worker started yet. */
  async function queuedRehire() {
    const { h, s } = await open();
    const rehire = rehireCandidate(h);
    const userId = [...h.server.context.state.users.values()].find((user) => user.email === rehire)!.id;
    const start = h.server.context.clock.now();
    const policy = s.writePolicy('policy.json', POLICY);
    const line = (id: string, email: string, hired: string, generatedMs: number) => [id, email, 'Active', hired, '', 'Engineering', 'Engineer', '', 'Berlin', '', `${new Date(generatedMs).toISOString().slice(0, 19)}Z`].join(',');
    await s.sync(s.writeExport('hr-1.csv', [HEADER, line('E001', 'dana.whitfield@acme.example', '2020-01-06', start)]), policy);
    const later = start + 3_600_000;
    const tomorrow = new Date(start + DAY).toISOString().slice(0, 10);
    const run = await s.sync(s.writeExport('hr-2.csv', [HEADER, line('E001', 'dana.whitfield@acme.example', '2020-01-06', later), line('E020', rehire, tomorrow, later)]), policy);
    if (run.kind !== 'planned' || run.applied?.joiners === undefined) throw new Error('the rehire was not queued');
    const { workflowId } = run.applied.joiners;
    const { engine } = s.o.system;
    const workflow = (await createRecordStore(engine.context.redis, engine.context.keys, hrRecordSchema, JOINERS).get(workflowId))!;
    const persons = createPersonStore(engine.context.redis, engine.context.keys, joinerStateSchema);
    const [person] = await persons.all(workflowId);
    if (person === undefined) throw new Error('the joiners workflow has no person');
    return { h, s, rehire, userId, start, workflowId, engine, workflow, persons, person };
  }

  it('a rehire reactivating whose "add skipped" was lost: the add batch still ends as the joiner ends', async () => {
    const { h, s } = await open();
    const rehire = rehireCandidate(h);
    const start = h.server.context.clock.now();
    const day = (days: number) => new Date(start + days * DAY).toISOString().slice(0, 10);
    const policy = s.writePolicy('policy.json', POLICY);
    const line = (id: string, email: string, hired: string, generatedMs: number) => [id, email, 'Active', hired, '', 'Engineering', 'Engineer', '', 'Berlin', '', `${new Date(generatedMs).toISOString().slice(0, 19)}Z`].join(',');
    const staff = line('E001', 'dana.whitfield@acme.example', '2020-01-06', start);
    // The first night knows the staff; the second brings the rehire back, starting tomorrow.
    await s.sync(s.writeExport('hr-1.csv', [HEADER, staff]), policy);
    const later = start + 3_600_000;
    const run = await s.sync(s.writeExport('hr-2.csv', [HEADER, line('E001', 'dana.whitfield@acme.example', '2020-01-06', later), line('E020', rehire, day(1), later)]), policy);
    if (run.kind !== 'planned' || run.applied?.joiners === undefined) throw new Error(`the rehire was not queued: ${JSON.stringify(run.kind === 'planned' ? run.plan.joiners : run.kind)}`);
    const { workflowId } = run.applied.joiners;
    const { engine } = s.o.system;
    const workflow = (await createRecordStore(engine.context.redis, engine.context.keys, hrRecordSchema, JOINERS).get(workflowId))!;
    const persons = createPersonStore(engine.context.redis, engine.context.keys, joinerStateSchema);
    const [person] = await persons.all(workflowId);

    // The step alone: it chooses the route (reactivate), records the add batch's end, and waits for the row.
    const steps = s.o.system.startStepWorker({ api: h.api, concurrency: 1, lockDurationMs: 4000, stalledIntervalMs: 1000 });
    const rows: { close(graceMs: number): Promise<void> }[] = [];
    try {
      await s.o.advance(DAY + 60_000);
      await s.o.waitFor(async () => (await persons.get(workflowId, person!.row))?.phase === 'reactivating' && (await engine.context.batches.hasOutcome(workflow.addBatch!, person!.row)));
      // As after a failover that kept the phase and lost that end.
      expect(await engine.context.batches.forgetOutcome(workflow.addBatch!, person!.row, 'skipped', 'planned')).toBe(true);
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
    const { h, s, rehire, userId, start, workflowId, engine, workflow, persons, person } = await queuedRehire();
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
    const { h, s, rehire, userId, workflowId, engine, workflow, persons, person } = await queuedRehire();
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
