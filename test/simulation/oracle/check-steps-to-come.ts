import type { Evidence } from './evidence.js';
import { INVARIANTS, type Violation } from './violation.js';

/**
 * `seatflow steps` once the run has settled, after every due instant passed: no step may still be listed to come
 * (it would be a step that never ran, or a status that does not say what happened). A listing that could not be read
 * is a violation too: it is what an operator asks.
 */
export function checkStepsToCome(evidence: Evidence): Violation[] {
  if (evidence.stepsToCome === undefined) return [{ invariant: INVARIANTS.reports, message: '`seatflow steps --json` did not answer with its steps', eventSeqs: [] }];
  return evidence.stepsToCome.map((step) => ({
    invariant: INVARIANTS.bound,
    message: `seatflow steps still lists ${step.step} of ${step.email} in ${step.workflowId} (${step.phase}, due ${step.dueAt}, job ${step.job ?? 'not said'}) after every due instant passed`,
    eventSeqs: [],
    lifecycle: true,
  }));
}
