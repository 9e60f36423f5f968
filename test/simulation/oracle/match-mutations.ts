import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { ChangePromise } from '../ledger/promise.js';
import type { Evidence } from './evidence.js';
import { isOutside, isServiceOwn, subjectsOf } from './mutation-subjects.js';
import { INVARIANTS, isLifecycleKey, type Violation } from './violation.js';

/** Which promise each change of the mutation log kept, and the changes that broke an invariant. */
export interface Matching {
  /** Promise key → the change that kept it. */
  kept: Map<string, Mutation>;
  violations: Violation[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * How far before its instant a change still counts as on time: seatflow knows the service's time to about a second
 * (the real service's Date header has whole seconds; the reference server's clock is read over HTTP by a busy process).
 * Early by more is a violation; the early changes this oracle exists for are hours and days early.
 */
export const CLOCK_TOLERANCE_MS = 2000;
const OUTCOMES_THAT_CHANGED = new Set(['succeeded', 'unknown']);
const OUTCOMES_THAT_DID_NOT = new Set(['failed', 'cancelled', 'unchanged']);

/**
 * Holds the mutation log against the promises, change by change in the service's order. A change keeps the promise
 * it may keep: same operation and subject, not kept yet, still promised at that instant (expected or optional, or
 * withdrawn only later), due by then; among several, the one whose own report says it made the change, before one
 * with no report, before one whose report says it did not; then the earliest made. A change with no such promise
 * breaks an invariant: one due later (early), one withdrawn or awaiting approval (it must not happen), one kept
 * already (twice), or none at all (unpromised).
 */
export function matchMutations(evidence: Evidence): Matching {
  const kept = new Map<string, Mutation>();
  const violations: Violation[] = [];
  const bySubject = new Map<string, ChangePromise[]>();
  for (const promise of evidence.promises) {
    for (const change of promise.changes) {
      const key = `${change.operation} ${change.subject}`;
      bySubject.set(key, [...(bySubject.get(key) ?? []), promise]);
    }
  }
  // 0: the promise's report says it made the change (or may have); 1: nothing reported yet; 2: its report says it
  // did not. `confirmed` says nothing either way: a failed row is confirmed too, when a read showed nothing landed
  // (soak seed 6689: a later row's column update was held against an earlier row that failed, confirmed not applied).
  const claims = (promise: ChangePromise) => {
    const outcome = promise.outcome === undefined ? undefined : evidence.outcomeOf(promise.outcome);
    if (outcome === undefined) return 1;
    return OUTCOMES_THAT_CHANGED.has(outcome.outcome) ? 0 : OUTCOMES_THAT_DID_NOT.has(outcome.outcome) ? 2 : 1;
  };
  for (const mutation of [...evidence.mutations].sort((a, b) => a.seq - b.seq)) {
    // Nobody promised what the service did by itself or what an admin did elsewhere; check-outside-changes.ts holds those.
    if (isServiceOwn(mutation) || isOutside(mutation)) continue;
    const at = Date.parse(mutation.at);
    const subjects = subjectsOf(mutation, evidence.identities);
    const seen = new Set<ChangePromise>();
    for (const subject of subjects) for (const promise of bySubject.get(`${mutation.operation} ${subject}`) ?? []) seen.add(promise);
    const candidates = [...seen];
    const open = candidates.filter((promise) => !kept.has(promise.key));
    const live = open.filter((promise) => promise.state === 'expected' || promise.state === 'optional' || (promise.state === 'withdrawn' && promise.since > at));
    const onTime = live.filter((promise) => promise.notBefore <= at + CLOCK_TOLERANCE_MS).sort((a, b) => claims(a) - claims(b) || (a.state === b.state ? 0 : a.state === 'expected' ? -1 : 1) || a.eventSeq - b.eventSeq);
    const what = `${mutation.operation} of ${subjects.join(' / ') || `${mutation.resourceType} ${mutation.resourceId}`} at ${mutation.at} (seq ${mutation.seq}: ${mutation.summary})`;
    const chosen = onTime[0];
    if (chosen !== undefined) {
      kept.set(chosen.key, mutation);
      continue;
    }
    const early = live.sort((a, b) => a.notBefore - b.notBefore)[0];
    if (early !== undefined) {
      kept.set(early.key, mutation);
      violations.push({
        invariant: INVARIANTS.early,
        message: `${what}: promised by ${early.label} not before ${iso(early.notBefore)}, ${formatLead(early.notBefore - at)} early${historyOf(early)}`,
        at,
        eventSeqs: [early.eventSeq],
        lifecycle: isLifecycleKey(early.key),
      });
      continue;
    }
    const barred = open[0];
    if (barred !== undefined) {
      kept.set(barred.key, mutation);
      violations.push({
        invariant: INVARIANTS.withdrawn,
        message: `${what}: ${barred.label} was ${barred.state === 'awaiting-approval' ? 'still awaiting approval' : `withdrawn (since ${iso(barred.since)})`}${historyOf(barred)}`,
        at,
        eventSeqs: [barred.eventSeq],
        lifecycle: isLifecycleKey(barred.key),
      });
      continue;
    }
    const twice = candidates[0];
    if (twice !== undefined) {
      const first = kept.get(twice.key);
      violations.push({
        invariant: INVARIANTS.once,
        message: `${what}: ${twice.label} was kept already by seq ${first?.seq} at ${first?.at}; this is a second change`,
        at,
        eventSeqs: candidates.map((promise) => promise.eventSeq),
        lifecycle: isLifecycleKey(twice.key),
      });
      continue;
    }
    violations.push({ invariant: INVARIANTS.unpromised, message: `${what}: no plan promised it`, at, eventSeqs: [] });
  }
  return { kept, violations };
}

function historyOf(promise: ChangePromise): string {
  return promise.history.length === 0 ? '' : ` [${promise.history.join('; ')}]`;
}

/** "2d 3h", "45 min", "12 s": how early. */
export function formatLead(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.round(ms / 1000)} s`;
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
