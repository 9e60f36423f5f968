import { describe, expect, it } from 'vitest';
import { hrWorkflowsOf } from '../../src/sync/hr-workflows.js';
import { useSyncHarnesses } from '../helpers/sync-harness.js';

const { open } = useSyncHarnesses();

describe('undo of a joiner reads what the rows did', () => {
  it('never says "nothing was done" for a joiner whose add was made: it says when, and that it stays made', async () => {
    const { h, s } = await open();
    const start = new Date(s.o.clock.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const policy = s.writePolicy('policy.json', { timeZone: 'UTC', planId: 5420192837465012, seats: { rules: [], default: 'CONTRIBUTOR' } });
    const header = 'Employee ID,Work Email,Status,Hire Date,Department,Job Title';
    const staff = [...h.server.context.state.users.values()].filter((u) => u.status === 'ACTIVE' && u.email.endsWith('@acme.example')).slice(0, 20);
    const rows = staff.map((u, i) => `${1000 + i},${u.email},Active,2020-01-01,Ops,Analyst`);
    const exported = s.writeExport('hr.csv', [header, ...rows, `9001,kofi.mensah@acme.example,Active,${start},Ops,Analyst`, `9002,ama.owusu@acme.example,Active,${start},Ops,Analyst`]);
    const run = await s.sync(exported, policy);
    if (run.kind !== 'planned') throw new Error(`sync was ${run.kind}`);
    const joiners = run.applied?.joiners?.workflowId;
    expect(joiners).toBeDefined();
    const hr = hrWorkflowsOf(s.o.system);
    const status = await hr.status(joiners!);
    const kofi = status?.persons.find((person) => person.email === 'kofi.mensah@acme.example');
    expect(kofi?.phase).toBe('scheduled');
    // What an early run left behind: the add row ended succeeded while the joiner still waited for the start date.
    const record = (await s.o.system.engine.lifecycles.get('joiners')?.records.get(joiners!)) as { addBatch?: string } | undefined;
    await h.system.store.recordOutcome({ batchId: record!.addBatch!, row: kofi!.row, line: kofi!.row + 1, action: 'add', outcome: 'succeeded', email: 'kofi.mensah@acme.example', attempts: 1, finishedAt: new Date(s.o.clock.now()).toISOString(), detail: { seatType: 'PROVISIONAL_MEMBER' } });

    const results = await hr.undo(joiners!, { by: 'hr-ops' });
    const byEmail = new Map(results?.map((result) => [result.email, result]));
    expect(byEmail.get('kofi.mensah@acme.example')?.result).toBe('refused');
    expect(byEmail.get('kofi.mensah@acme.example')?.message).toMatch(/^refused: its add was made at .* \(PROVISIONAL_MEMBER\) and stays made; undo cannot take that back$/);
    expect(byEmail.get('ama.owusu@acme.example')).toMatchObject({ result: 'undone', message: 'cancelled before its step ran: nothing was done' });
  });
});
