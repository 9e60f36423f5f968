import { DEMO } from '../../src/server/demo/demo-organization.js';
import { hrRecordSchema, joinerStateSchema } from '../../src/sync/hr-workflow-state.js';
import { JOINERS } from '../../src/sync/joiner-lifecycle.js';
import { createPersonStore } from '../../src/workflow/person-store.js';
import { createRecordStore } from '../../src/workflow/record-store.js';
import type { BatchHarness } from './batch-harness.js';
import { DAY } from './offboarding-harness.js';
import { rehireCandidate, type SyncHarness } from './sync-harness.js';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [], default: 'MEMBER' }, leavers: { hold: '7d', transferTo: 'admin@acme.example' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';

/**
 * A rehire starting tomorrow, queued by the second night's sync (the first knows only the staff): the joiners
 * workflow, its one person and their stores. No worker is started.
 */
export async function queuedRehire(h: BatchHarness, s: SyncHarness) {
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
  return { rehire, userId, start, workflowId, engine, workflow, persons, person };
}
