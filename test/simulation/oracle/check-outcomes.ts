import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { ChangePromise } from '../ledger/promise.js';
import type { Evidence, ReportedOutcome } from './evidence.js';
import { promisedOperationOf, subjectsOf } from './mutation-subjects.js';
import { INVARIANTS, isLifecycleKey, type Violation } from './violation.js';

/** Outcomes that say the row made its change (or may have: `unknown`). */
const SAYS_CHANGED = new Set(['succeeded', 'unknown']);
/** The seat change a lifecycle change makes when its summary shows a seat moving (the reference server says so). */
const SEAT_MOVE_OF_LIFECYCLE: Readonly<Record<string, string>> = { deactivateUser: 'downgradeUser', reactivateUser: 'upgradeUser' };
/** Outcomes that say why a change did not happen. */
const SAYS_WHY_NOT = new Set(['failed', 'cancelled', 'skipped', 'unchanged', 'unknown']);

/**
 * Each promise against what seatflow reports for it and what the service did. Kept: the row must say it made the
 * change (`succeeded`, a confirmed `unchanged` after a lost answer, or `unknown`), never `failed`, `cancelled` or
 * `skipped`. Not kept: an expected promise needs an outcome that says why not (refused with the service's answer,
 * cancelled, skipped, already so), and no promise may be reported `succeeded`. `unchanged` (already so) stands only
 * when something made it so: another change of the same kind to the same subject, or the subject as it was at the
 * start.
 */
export function checkOutcomes(evidence: Evidence, kept: ReadonlyMap<string, Mutation>): Violation[] {
  const violations: Violation[] = [];
  const changedKeys = new Set<string>();
  for (const mutation of evidence.mutations) {
    // A provisional seat expired on the service's clock, an admin's seat change elsewhere: a row may find it done.
    const operation = promisedOperationOf(mutation);
    // A deactivation takes the Member seat and a reactivation gives one: a seat row after it may find its seat given.
    const seatMoved = / → \w+/.test(mutation.summary) ? SEAT_MOVE_OF_LIFECYCLE[operation] : undefined;
    for (const subject of subjectsOf(mutation, evidence.identities)) {
      changedKeys.add(`${operation} ${subject}`);
      if (seatMoved !== undefined) changedKeys.add(`${seatMoved} ${subject}`);
    }
  }
  const initially = new Map(evidence.initialUsers.map((user) => [user.id, user]));
  for (const promise of evidence.promises) {
    if (promise.outcome === undefined) continue;
    const outcome = evidence.outcomeOf(promise.outcome);
    const change = kept.get(promise.key);
    const where = `${promise.label} (${promise.outcome.batchIds.join(' or ')} ${promise.outcome.row === undefined ? promise.outcome.email : `row ${promise.outcome.row}`})`;
    const say = (invariant: Violation['invariant'], message: string) => violations.push({ invariant, message: `${where}: ${message}`, ...(change === undefined ? {} : { at: Date.parse(change.at) }), eventSeqs: [promise.eventSeq], lifecycle: isLifecycleKey(promise.key) });
    if (change !== undefined) {
      // A withdrawn change that happened is that violation already (match-mutations.ts), whatever its row says.
      if (promise.state === 'withdrawn' || promise.state === 'awaiting-approval') continue;
      if (outcome === undefined) say(INVARIANTS.reports, `the service changed it at ${change.at} (seq ${change.seq}) and seatflow has no outcome for it`);
      else if (!SAYS_CHANGED.has(outcome.outcome) && !(outcome.outcome === 'unchanged' && outcome.confirmed === true)) say(INVARIANTS.reports, `seatflow says ${describe(outcome)}, but the service changed it at ${change.at} (seq ${change.seq}: ${change.summary})`);
      continue;
    }
    // Succeeded with the change made by another row stands: the service answers a deactivation of a user already
    // deactivated with success and records nothing, so the row cannot tell whose call changed it.
    if (outcome?.outcome === 'succeeded' && !promise.changes.some((c) => changedKeys.has(`${c.operation} ${c.subject}`))) {
      say(INVARIANTS.reports, `seatflow says succeeded, but the service shows no ${promise.changes.map((c) => c.operation).join('/')} of ${promise.changes[0]?.subject}`);
      continue;
    }
    if (outcome?.outcome === 'succeeded') continue;
    if (promise.state !== 'expected') continue;
    if (outcome === undefined) {
      say(INVARIANTS.kept, `promised (not before ${new Date(promise.notBefore).toISOString()}), never happened, and no outcome says why`);
      continue;
    }
    if (!SAYS_WHY_NOT.has(outcome.outcome)) {
      say(INVARIANTS.kept, `never happened; seatflow says ${describe(outcome)}`);
      continue;
    }
    if (outcome.outcome === 'failed' && outcome.status === undefined && outcome.rule === undefined && outcome.category === undefined) {
      say(INVARIANTS.kept, `failed without the service's answer or a rule: ${describe(outcome)}`);
      continue;
    }
    if (outcome.outcome === 'unchanged' && !promise.changes.some((c) => changedKeys.has(`${c.operation} ${c.subject}`)) && !alreadySoAtStart(promise, initially)) {
      say(INVARIANTS.reports, `seatflow says unchanged (already so), but nothing made it so: no ${promise.changes.map((c) => c.operation).join('/')} of it in the mutation log, nor at the start`);
    }
  }
  return violations;
}

function describe(outcome: ReportedOutcome): string {
  const service = outcome.status === undefined ? '' : ` (HTTP ${outcome.status}${outcome.errorCode === undefined ? '' : ` ${outcome.errorCode}`})`;
  return `${outcome.outcome}${service}${outcome.message === undefined ? '' : `: ${outcome.message}`}`;
}

/** A user's state at the start that already is what the change would make it. */
function alreadySoAtStart(promise: ChangePromise, initially: ReadonlyMap<number, { status?: string; seatType?: unknown }>): boolean {
  return promise.changes.some((change) => {
    const id = /^user:(\d+)$/.exec(change.subject)?.[1];
    const user = id === undefined ? undefined : initially.get(Number(id));
    if (user === undefined) return false;
    switch (change.operation) {
      case 'deactivateUser':
        return user.status === 'DEACTIVATED';
      case 'reactivateUser':
        return user.status === 'ACTIVE';
      case 'downgradeUser':
        return user.seatType !== 'MEMBER';
      case 'upgradeUser':
        return user.seatType === 'MEMBER';
      default:
        return false;
    }
  });
}
