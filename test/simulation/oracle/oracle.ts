import { checkAudit } from './check-audit.js';
import { checkOffboardings } from './check-offboardings.js';
import { checkOutcomes } from './check-outcomes.js';
import { checkOutsideChanges } from './check-outside-changes.js';
import { checkStepsToCome } from './check-steps-to-come.js';
import type { Evidence } from './evidence.js';
import { matchMutations } from './match-mutations.js';
import { INVARIANTS, type Violation } from './violation.js';

/**
 * The oracle: trusts only what seatflow promised (the plans it showed, as the ledger holds them) and what the service
 * did (its mutation log and final state), and holds what seatflow says at the end (outcomes, statuses, the audit
 * trail) against both. Returns every violation; none means the run kept every promise.
 */
export function judge(evidence: Evidence): Violation[] {
  const { kept, violations } = matchMutations(evidence);
  const unreadable = evidence.unreadable.map((batch): Violation => ({ invariant: INVARIANTS.reports, message: `the control API would not serve the outcomes of batch ${batch}`, eventSeqs: [] }));
  return [...violations, ...unreadable, ...checkOutcomes(evidence, kept), ...checkOffboardings(evidence, kept), ...checkStepsToCome(evidence), ...checkAudit(evidence, kept), ...checkOutsideChanges(evidence)];
}
