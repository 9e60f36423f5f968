import { DEMO } from '../../src/server/demo/demo-organization.js';
import type { BatchHarness } from './batch-harness.js';
import type { SyncHarness } from './sync-harness.js';

/** The one employee of these exports: an engineer (Member by the policy) who moves to Sales (Contributor). */
export const MOVER = 'jordan.lee@acme.example';

const POLICY = { timeZone: 'UTC', planId: DEMO.planId, seats: { rules: [{ name: 'engineering', when: { department: 'Engineering' }, then: { seat: 'MEMBER' } }], default: 'CONTRIBUTOR' }, leavers: { hold: '7d' } };
const HEADER = 'Employee ID,Work Email,Status,Hire Date,Termination Date,Department,Job Title,Manager Email,Location,Effective Date,Generated At';

/** A second employee of these exports, when asked for: staying in night 1, leaving tomorrow in night 2. */
export const LEAVER = 'priya.shah@acme.example';
const MANAGER = 'dana.whitfield@acme.example';

/**
 * Night 1 synced and accepted (the mover in Engineering), the service's clock a minute on; night 2's export written,
 * the move to Sales effective today, not synced yet. With `leaver`, both nights also have LEAVER, whose night 2 row
 * ends tomorrow. Returns the policy file and night 2's export.
 */
export async function moverToSales(h: BatchHarness, s: SyncHarness, leaver = false): Promise<{ policy: string; nightTwo: string }> {
  const policy = s.writePolicy('lifecycle.json', POLICY);
  const now = h.server.context.clock.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const tomorrow = new Date(now + 86_400_000).toISOString().slice(0, 10);
  const generated = () => `${new Date(h.server.context.clock.now()).toISOString().slice(0, 19)}Z`;
  const row = (id: string, email: string, department: string, effective = '', end = '', manager = '') => [id, email, 'Active', '2020-01-06', end, department, 'Engineer', manager, 'Berlin', effective, generated()].join(',');
  // Their groups go to their manager, a group admin, when they leave.
  const staying = leaver ? [row('E2', LEAVER, 'Engineering', '', '', MANAGER)] : [];
  const one = await s.sync(s.writeExport('hr-1.csv', [HEADER, row('E1', MOVER, 'Engineering'), ...staying]), policy, { acceptMissing: true });
  if (one.kind !== 'planned' || !one.disposition.applied) throw new Error('night 1 was not applied');
  h.server.context.clock.advance(60_000);
  const leaving = leaver ? [row('E2', LEAVER, 'Engineering', '', tomorrow, MANAGER)] : [];
  return { policy, nightTwo: s.writeExport('hr-2.csv', [HEADER, row('E1', MOVER, 'Sales', today), ...leaving]) };
}
