import { describe, expect, it } from 'vitest';
import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import { createLedger } from '../ledger/ledger.js';
import { userKey, type ChangePromise } from '../ledger/promise.js';
import type { Evidence, ReportedOutcome } from './evidence.js';
import { identitiesOf } from './identities.js';
import { judge } from './oracle.js';

const T0 = Date.parse('2031-03-03T00:00:00.000Z');
const HOUR = 3_600_000;
const ALICE = { id: 101, email: 'alice@acme.example', status: 'ACTIVE', seatType: 'MEMBER' };
const BOB = { id: 102, email: 'bob@acme.example', status: 'ACTIVE', seatType: 'MEMBER' };

let seq = 0;
function mutation(operation: string, userId: number, at: number): Mutation {
  seq += 1;
  return { seq, at: new Date(at).toISOString(), operation, resourceType: 'user', resourceId: userId, userId, via: 'api', summary: `${operation} ${userId}` };
}

function promise(key: string, userId: number, notBefore: number, extra: Partial<ChangePromise> = {}): Omit<ChangePromise, 'history' | 'since'> {
  return { key, eventSeq: 1, label: key, changes: [{ operation: 'deactivateUser', subject: userKey(userId) }], notBefore, state: 'expected', outcome: { batchIds: ['b000000000001'], row: Number(key.split(' ')[1] ?? 1) }, ...extra };
}

/** Evidence of a run with these promises, changes and outcomes; an intact, complete audit trail unless given. */
function evidence(options: { promises: Omit<ChangePromise, 'history' | 'since'>[]; mutations: Mutation[]; outcomes?: ReportedOutcome[]; audit?: Evidence['audit'] }): Evidence {
  const ledger = createLedger();
  for (const each of options.promises) ledger.promise(each);
  const outcomes = options.outcomes ?? [];
  const users = [ALICE, BOB];
  return {
    promises: ledger.all(),
    mutations: options.mutations,
    identities: identitiesOf([users], options.mutations),
    initialUsers: users,
    finalUsers: users,
    outcomeOf: (ref) => outcomes.find((o) => ref.batchIds.includes(o.batchId) && o.row === ref.row),
    offboardings: [],
    stepsToCome: [],
    unreadable: [],
    audit: options.audit ?? { intact: true, detail: '', entries: outcomes.filter((o) => o.outcome === 'succeeded').map((o) => ({ event: 'row.applied', subject: o.batchId, data: { row: o.row, outcome: 'succeeded' } })) },
  };
}

const succeeded = (row: number): ReportedOutcome => ({ batchId: 'b000000000001', row, outcome: 'succeeded' });

describe('the oracle', () => {
  it('finds nothing wrong when every promised change happened once, on time, and is reported and in the trail', () => {
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0)], mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)], outcomes: [succeeded(1)] }));
    expect(found).toEqual([]);
  });

  it('names a change made before its due instant, by how much', () => {
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0 + 48 * HOUR)], mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)], outcomes: [succeeded(1)] }));
    expect(found.map((v) => v.invariant)).toEqual(['nothing-before-its-time']);
    expect(found[0]!.message).toContain('47 h early');
  });

  it('takes a change within the clock tolerance of its instant as on time, and one just beyond it as early', () => {
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0 + HOUR), promise('row 2', BOB.id, T0 + HOUR)],
      mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR - 1500), mutation('deactivateUser', BOB.id, T0 + HOUR - 2500)],
      outcomes: [succeeded(1), succeeded(2)],
    }));
    expect(found.map((v) => v.invariant)).toEqual(['nothing-before-its-time']);
    expect(found[0]!.message).toContain('bob@acme.example');
  });

  it('names a second change of a promise kept already, and a change no plan promised', () => {
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0)],
      mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR), mutation('deactivateUser', ALICE.id, T0 + 2 * HOUR), mutation('deactivateUser', BOB.id, T0 + HOUR)],
      outcomes: [succeeded(1)],
    }));
    expect(found.map((v) => v.invariant).sort()).toEqual(['each-change-once', 'nothing-unpromised']);
  });

  it('names a withdrawn change that happened, and a promise neither kept nor explained', () => {
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0, { state: 'withdrawn' }), promise('row 2', BOB.id, T0)],
      mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)],
    }));
    expect(found.map((v) => v.invariant).sort()).toEqual(['promise-kept-or-explained', 'withdrawn-stays-undone']);
  });

  it('holds reports against the service: succeeded without the change, cancelled with it, unchanged with nothing that made it so', () => {
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0), promise('row 2', BOB.id, T0), promise('row 3', ALICE.id, T0, { changes: [{ operation: 'downgradeUser', subject: userKey(BOB.id) }] })],
      mutations: [mutation('deactivateUser', BOB.id, T0 + HOUR)],
      outcomes: [succeeded(1), { batchId: 'b000000000001', row: 2, outcome: 'cancelled' }, { batchId: 'b000000000001', row: 3, outcome: 'unchanged' }],
    }));
    expect(found.map((v) => v.invariant)).toEqual(['reports-match-the-service', 'reports-match-the-service', 'reports-match-the-service', 'audit-trail-complete']);
  });

  it('lets a seat row find its seat given by a deactivation that took the Member seat, and only then', () => {
    const deactivation = { ...mutation('deactivateUser', ALICE.id, T0 + HOUR), summary: 'deactivated alice@acme.example; plan 1: MEMBER → VIEWER' };
    const downgrade = promise('row 2', ALICE.id, T0, { changes: [{ operation: 'downgradeUser', subject: userKey(ALICE.id) }] });
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0), downgrade], mutations: [deactivation], outcomes: [succeeded(1), { batchId: 'b000000000001', row: 2, outcome: 'unchanged' }] }));
    expect(found).toEqual([]);
    // A deactivation that moved no seat (the user held none to take) made nothing of the downgrade so.
    const seatless = { ...deactivation, summary: 'deactivated alice@acme.example' };
    const refused = judge(evidence({ promises: [promise('row 1', ALICE.id, T0), downgrade], mutations: [seatless], outcomes: [succeeded(1), { batchId: 'b000000000001', row: 2, outcome: 'unchanged' }] }));
    expect(refused.map((v) => v.invariant)).toEqual(['reports-match-the-service']);
  });

  it('takes succeeded for a change another row made first (the service answers a deactivation of a deactivated user with success)', () => {
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0), promise('row 2', ALICE.id, T0)],
      mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)],
      outcomes: [succeeded(1), succeeded(2)],
    }));
    expect(found).toEqual([]);
  });

  it('gives a change to the row that says it made it, not to an earlier row of the same subject that failed, confirmed not applied', () => {
    // Found by the whole-system simulation (seed 6689): two batches updated the same column; the first row failed (a
    // read showed its change had not landed, so its outcome is `confirmed`), the second made the change. The oracle
    // gave the change to the first, as `confirmed` ranked like a report of the change, and named two false violations.
    const failed: ReportedOutcome = { batchId: 'b000000000001', row: 1, outcome: 'failed', category: 'ServiceUnavailable', confirmed: true, message: 'gave up (a later read shows it was not applied)' };
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0, { eventSeq: 1 }), promise('row 2', ALICE.id, T0 + HOUR, { eventSeq: 2 })],
      mutations: [mutation('deactivateUser', ALICE.id, T0 + 2 * HOUR)],
      outcomes: [failed, succeeded(2)],
    }));
    expect(found).toEqual([]);
    // The failed row still keeps a change no other row claims: a row failed while its change landed is named.
    const alone = judge(evidence({ promises: [promise('row 1', ALICE.id, T0)], mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)], outcomes: [failed] }));
    expect(alone.map((v) => v.invariant)).toContain('reports-match-the-service');
  });

  it('names a batch whose outcomes the control API would not serve', () => {
    const found = judge({ ...evidence({ promises: [], mutations: [] }), unreadable: ['b000000000009 (500)'] });
    expect(found.map((v) => v.message)).toEqual(['the control API would not serve the outcomes of batch b000000000009 (500)']);
  });

  it('takes a refusal with the service’s answer as the reason a promise was not kept', () => {
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0)], mutations: [], outcomes: [{ batchId: 'b000000000001', row: 1, outcome: 'failed', status: 403, errorCode: 9002, category: 'Refused' }] }));
    expect(found).toEqual([]);
  });

  it('names a change missing from the audit trail, and a trail that does not verify', () => {
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0)], mutations: [mutation('deactivateUser', ALICE.id, T0 + HOUR)], outcomes: [succeeded(1)], audit: { intact: false, detail: 'entry 7: hash', entries: [] } }));
    expect(found.map((v) => v.invariant)).toEqual(['audit-trail-complete', 'audit-trail-complete']);
  });

  it('names a change made in the Admin Center that the audit trail does not tell, and seatflow’s own change told as outside', () => {
    const outside = { ...mutation('deactivateUser', BOB.id, T0 + HOUR), via: 'admin-center' as const, actorId: 9 };
    const own = mutation('deactivateUser', ALICE.id, T0 + 2 * HOUR);
    const toldOwn = { event: 'change.outside', subject: ALICE.email, data: { event: 'user.deactivated', userId: ALICE.id, email: ALICE.email, at: own.at, why: 'own-account-not-seatflow' } };
    const found = judge(evidence({ promises: [promise('row 1', ALICE.id, T0)], mutations: [outside, own], outcomes: [succeeded(1)], audit: { intact: true, detail: '', entries: [{ event: 'row.applied', subject: 'b000000000001', data: { row: 1, outcome: 'succeeded' } }, toldOwn] } }));
    expect(found.map((v) => v.invariant)).toEqual(['changes-elsewhere-told-apart', 'changes-elsewhere-told-apart']);
    expect(found[0]!.message).toContain('no change.outside entry');
    expect(found[1]!.message).toContain("it was seatflow's");
  });

  it('takes a change made in the Admin Center, told once in the trail, as no promise of seatflow’s, and lets a row find it done', () => {
    const outside = { ...mutation('changeSeat', ALICE.id, T0 + HOUR), summary: 'alice@acme.example in plan 1: MEMBER → VIEWER in the Admin Center', via: 'admin-center' as const, actorId: 9 };
    const told = { event: 'change.outside', subject: ALICE.email, data: { event: 'user.seatType.updated', userId: ALICE.id, at: outside.at, why: 'another-user' } };
    const found = judge(evidence({
      promises: [promise('row 1', ALICE.id, T0, { changes: [{ operation: 'downgradeUser', subject: userKey(ALICE.id) }] })],
      mutations: [outside],
      outcomes: [{ batchId: 'b000000000001', row: 1, outcome: 'unchanged' }],
      audit: { intact: true, detail: '', entries: [told] },
    }));
    expect(found).toEqual([]);
  });

  it("takes an offboarding's leaver undone when someone reactivated the user after its deactivation, and names one nobody reactivated", () => {
    const deactivation = promise('o1:alice@acme.example:deactivate', ALICE.id, T0);
    const deactivated = mutation('deactivateUser', ALICE.id, T0 + HOUR);
    const undone = (mutations: Mutation[]) => {
      const run = { ...evidence({ promises: [deactivation], mutations, outcomes: [succeeded(1)] }), offboardings: [{ id: 'o1', eventSeq: 1, leavers: [{ email: ALICE.email, userId: ALICE.id, phase: 'undone' }] }] };
      return judge(run).filter((v) => v.invariant === 'reports-match-the-service');
    };
    // The admin reactivated the user in the Admin Center before seatflow's reactivation, which then found them active.
    expect(undone([deactivated, { ...mutation('reactivateUser', ALICE.id, T0 + 2 * HOUR), via: 'admin-center' }])).toEqual([]);
    const found = undone([deactivated]);
    expect(found.map((v) => v.message)).toEqual([expect.stringContaining('nobody reactivated them since')]);
  });

  it("takes seatflow's word 'undo-failed' (an undone leaver whose reactivation the service refused) as it says, and names one whose reactivation happened", () => {
    // Found by the whole-system simulation (seed 3805): the oracle read the phase (undone: the undo was accepted)
    // where seatflow showed undo-failed, with the service's refusal.
    const deactivation = promise('o1:alice@acme.example:deactivate', ALICE.id, T0);
    const deactivated = mutation('deactivateUser', ALICE.id, T0 + HOUR);
    const judged = (mutations: Mutation[], reactivation: Omit<ChangePromise, 'history' | 'since'>[] = []) => {
      const run = { ...evidence({ promises: [deactivation, ...reactivation], mutations, outcomes: [succeeded(1), succeeded(2)] }), offboardings: [{ id: 'o1', eventSeq: 1, leavers: [{ email: ALICE.email, userId: ALICE.id, phase: 'undone', status: 'undo-failed' }] }] };
      return judge(run).filter((v) => v.invariant === 'reports-match-the-service');
    };
    expect(judged([deactivated])).toEqual([]);
    const reactivation = promise('o1:alice@acme.example:reactivate', ALICE.id, T0 + HOUR, { changes: [{ operation: 'reactivateUser', subject: userKey(ALICE.id) }], outcome: { batchIds: ['b000000000001'], row: 2 } });
    const found = judged([deactivated, mutation('reactivateUser', ALICE.id, T0 + 2 * HOUR)], [reactivation]);
    expect(found.map((v) => v.message)).toEqual([expect.stringContaining('seatflow says undo-failed')]);
  });
});
