import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { Evidence } from './evidence.js';
import { INVARIANTS, isLifecycleKey, type Violation } from './violation.js';


/**
 * The audit trail: its hash chain verifies, and each change the service made for a promise has exactly one row entry
 * (`row.applied`) of its batch and row saying it was made (or, for a row whose answer was lost, one saying it may have
 * been): none is a change nobody can account for, two a change recorded twice.
 */
export function checkAudit(evidence: Evidence, kept: ReadonlyMap<string, Mutation>): Violation[] {
  const violations: Violation[] = [];
  if (!evidence.audit.intact) violations.push({ invariant: INVARIANTS.audit, message: `the audit trail does not verify: ${evidence.audit.detail}`, eventSeqs: [] });
  // Per batch row: entries saying the change was made, and entries saying it may have been (unknown).
  const made = new Map<string, number>();
  const maybe = new Set<string>();
  for (const entry of evidence.audit.entries) {
    if (entry.event !== 'row.applied' || entry.subject === undefined || entry.data?.row === undefined) continue;
    const id = `${entry.subject} row ${entry.data.row}`;
    const outcome = entry.data.outcome ?? '';
    if (outcome === 'succeeded' || (outcome === 'unchanged' && entry.data.confirmed === true)) made.set(id, (made.get(id) ?? 0) + 1);
    else if (outcome === 'unknown') maybe.add(id);
  }
  for (const promise of evidence.promises) {
    const change = kept.get(promise.key);
    if (change === undefined || promise.outcome === undefined) continue;
    const outcome = evidence.outcomeOf(promise.outcome);
    if (outcome === undefined) continue;
    const id = `${outcome.batchId} row ${outcome.row}`;
    const count = made.get(id) ?? 0;
    if (count > 1 || (count === 0 && !maybe.has(id))) {
      violations.push({
        invariant: INVARIANTS.audit,
        message: `${promise.label}: the change at ${change.at} (seq ${change.seq}) has ${count} row entries saying it was made in the audit trail (${id}), not one`,
        at: Date.parse(change.at),
        eventSeqs: [promise.eventSeq],
        lifecycle: isLifecycleKey(promise.key),
      });
    }
  }
  return violations;
}
