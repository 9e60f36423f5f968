import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { Evidence } from './evidence.js';
import { INVARIANTS, type Violation } from './violation.js';

/** Phases from which a leaver still has a step to come. */
const OPEN = new Set(['scheduled', 'deactivating', 'holding', 'removing']);

/**
 * Each offboarding's leavers, as seatflow shows them at the end, against what the service did for that offboarding:
 * none still open (the run ended after every due instant), `removed` only when its removal happened, `undone` only
 * when nothing of it stands (no deactivation, or one reactivated again, by seatflow or by someone else before it),
 * `undo-failed` only when its reactivation did not happen, and no other end when it removed the user. Judged by what
 * seatflow tells people (the status), which for an undone leaver says whether the reactivation happened.
 */
export function checkOffboardings(evidence: Evidence, kept: ReadonlyMap<string, Mutation>): Violation[] {
  const violations: Violation[] = [];
  const present = new Set(evidence.finalUsers.map((user) => user.email.toLowerCase()));
  for (const offboarding of evidence.offboardings) {
    for (const leaver of offboarding.leavers) {
      const key = (step: string) => `${offboarding.id}:${leaver.email}:${step}`;
      const deactivated = kept.get(key('deactivate'));
      const removed = kept.get(key('remove'));
      const reactivated = kept.get(key('reactivate'));
      // What seatflow tells people: the status (an undone leaver's says whether the reactivation happened), else the phase.
      const says = leaver.status ?? leaver.phase;
      const say = (message: string) => violations.push({ invariant: INVARIANTS.reports, message: `offboarding ${offboarding.id}, ${leaver.email}: seatflow says ${says}${leaver.reason === undefined ? '' : ` (${leaver.reason})`}; ${message}`, eventSeqs: [offboarding.eventSeq], lifecycle: true });
      if (OPEN.has(leaver.phase)) {
        violations.push({ invariant: INVARIANTS.bound, message: `offboarding ${offboarding.id}, ${leaver.email}: still ${leaver.phase} after every due instant passed`, eventSeqs: [offboarding.eventSeq], lifecycle: true });
        continue;
      }
      if (leaver.phase === 'removed' && removed === undefined && present.has(leaver.email)) say('the user is still in the organization and no removal by it happened');
      // Undone stands when the user was reactivated after seatflow's deactivation: by its own reactivation, or by an
      // admin before it (its reactivation then finds the user active: nothing of the offboarding stands either way).
      const reactivatedSince = (after: Mutation) => evidence.mutations.some((m) => m.seq > after.seq && m.userId === after.userId && m.operation === 'reactivateUser');
      if (says === 'undone' && deactivated !== undefined && reactivated === undefined && !reactivatedSince(deactivated)) say(`it deactivated the user at ${deactivated.at} (seq ${deactivated.seq}) and nobody reactivated them since`);
      // An undo whose reactivation failed leaves the deactivation standing: its own reactivation must not have happened.
      if (says === 'undo-failed' && reactivated !== undefined) say(`its reactivation happened at ${reactivated.at} (seq ${reactivated.seq})`);
      if (leaver.phase !== 'removed' && removed !== undefined) say(`it removed the user at ${removed.at} (seq ${removed.seq})`);
    }
  }
  return violations;
}
