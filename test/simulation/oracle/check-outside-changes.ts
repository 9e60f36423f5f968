import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { Evidence } from './evidence.js';
import { CLOCK_TOLERANCE_MS } from './match-mutations.js';
import { isOutside, isServiceOwn } from './mutation-subjects.js';
import { INVARIANTS, type Violation } from './violation.js';

/**
 * Changes made elsewhere, told apart (docs/events.md#whose-change): each user change an admin made outside seatflow
 * has a `change.outside` entry in the audit trail (its user, at its instant), and every `change.outside` entry is a
 * change seatflow did not make: an outside one or the service's own, of that user at that instant. An entry for one
 * of seatflow's own changes means the change agent and the own-change ledger both failed to explain it.
 */
export function checkOutsideChanges(evidence: Evidence): Violation[] {
  const violations: Violation[] = [];
  const told = evidence.audit.entries.filter((entry) => entry.event === 'change.outside' && entry.data?.userId !== undefined);
  const near = (mutation: Mutation, at: string | undefined) => at !== undefined && Math.abs(Date.parse(mutation.at) - Date.parse(at)) <= CLOCK_TOLERANCE_MS;
  const notSeatflows = evidence.mutations.filter((mutation) => mutation.userId !== undefined && (isOutside(mutation) || isServiceOwn(mutation)));
  for (const mutation of evidence.mutations) {
    if (!isOutside(mutation) || mutation.userId === undefined) continue;
    if (told.some((entry) => entry.data?.userId === mutation.userId && near(mutation, entry.data?.at))) continue;
    violations.push({ invariant: INVARIANTS.elsewhere, message: `${mutation.operation} of user ${mutation.userId} made ${mutation.via === 'identity-provider' ? 'by the identity provider' : 'in the Admin Center'} at ${mutation.at} (seq ${mutation.seq}: ${mutation.summary}) has no change.outside entry in the audit trail`, at: Date.parse(mutation.at), eventSeqs: [] });
  }
  for (const entry of told) {
    const data = entry.data!;
    if (notSeatflows.some((mutation) => mutation.userId === data.userId && near(mutation, data.at))) continue;
    const own = evidence.mutations.filter((mutation) => mutation.userId === data.userId && near(mutation, data.at));
    violations.push({
      invariant: INVARIANTS.elsewhere,
      message: `the audit trail says ${data.event ?? 'a change'} of ${data.email ?? `user ${data.userId}`} at ${data.at} was made outside seatflow (${data.why ?? '?'}), but ${own.length === 0 ? 'the service logged no change of that user then' : `it was seatflow's: ${own.map((mutation) => `seq ${mutation.seq} ${mutation.summary}`).join('; ')}`}`,
      ...(data.at === undefined ? {} : { at: Date.parse(data.at) }),
      eventSeqs: [],
    });
  }
  return violations;
}
