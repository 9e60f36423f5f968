import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { BatchHarness } from './batch-harness.js';
import type { SyncHarness } from './sync-harness.js';

/** The one employee of these exports: an engineer (Member by the policy) who moves to Sales (Contributor). */
export const MOVER = 'jordan.lee@acme.example';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' }, leavers: { hold: '7d' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';

/**
 * Night 1 synced and accepted (the mover in Engineering), the service's clock a minute on; night 2's export written,
 * the move to Sales effective today, not synced yet. Returns the policy file and night 2's export.
 */
export async function moverToSales(h: BatchHarness, s: SyncHarness): Promise<{ policy: string; nightTwo: string }> {
  const policy = s.writePolicy('lifecycle.json', POLICY);
  const today = new Date(h.server.context.clock.now()).toISOString().slice(0, 10);
  const generated = () => `${new Date(h.server.context.clock.now()).toISOString().slice(0, 19)}Z`;
  const row = (department: string, effective = '') => ['E1', MOVER, 'Active', '2020-01-06', '', department, 'Engineer', '', 'Berlin', effective, generated()].join(',');
  const one = await s.sync(s.writeExport('hr-1.csv', [HEADER, row('Engineering')]), policy, { acceptMissing: true });
  if (one.kind !== 'planned' || !one.disposition.applied) throw new Error('night 1 was not applied');
  h.server.context.clock.advance(60_000);
  return { policy, nightTwo: s.writeExport('hr-2.csv', [HEADER, row('Sales', today)]) };
}
