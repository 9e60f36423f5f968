import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScheduleBook } from '../reconcile/schedule-book.js';
import type { PolicyInForce } from './drift-check.js';

/**
 * The policies a change made elsewhere is checked against (docs/events.md#drift): those the target's schedules run (a
 * reconciliation's licence policy, a sync's lifecycle policy) and those config `events.policies` lists, each once.
 * A listed file is a lifecycle policy when it has `seats`, else a licence policy; one that cannot be read is left to
 * the check, which says why it skips it.
 */
export async function policiesInForce(configured: readonly string[], schedules: Pick<ScheduleBook, 'list'> | undefined): Promise<PolicyInForce[]> {
  const listed = await Promise.all(configured.map(async (file): Promise<PolicyInForce> => ({ path: path.resolve(file), kind: await kindOf(path.resolve(file)), from: 'config events.policies' })));
  const scheduled = (await schedules?.list()) ?? [];
  const fromSchedules = scheduled.map((item): PolicyInForce => ({ path: path.resolve(item.policyPath), kind: item.kind === 'sync' ? 'lifecycle' : 'reconciliation', from: `schedule ${item.name}` }));
  return [...listed, ...fromSchedules].filter((policy, index, all) => all.findIndex((other) => other.path === policy.path) === index);
}

async function kindOf(file: string): Promise<PolicyInForce['kind']> {
  try {
    const document = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    return 'seats' in document ? 'lifecycle' : 'reconciliation';
  } catch {
    return 'reconciliation';
  }
}
