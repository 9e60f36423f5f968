import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GovernanceRefusal } from '../../src/governance/governance-refusal.js';
import { fingerprintOfBatchPlan, planHashOf } from '../../src/governance/approvals/plan-fingerprint.js';
import { batchInputOf } from '../../src/governance/kinds/batch-kind.js';
import type { ChangeRequest } from '../../src/governance/approvals/approval-gate.js';
import type { BatchPlan } from '../../src/plan/planned-row.js';
import { batchIdOf } from '../../src/queue/submit-batch.js';
import { verifyAuditEntries } from '../../src/governance/audit/verify-audit.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ALICE, BOB, CAROL, VERA, createGovernanceHarness, membersOf, seatOf, type GovernanceHarness } from '../helpers/governance-harness.js';
import { collect } from '../helpers/collect.js';

let redis: TestRedis;
let g: GovernanceHarness;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  // Over 2 changes a batch waits for a second person.
  g = await createGovernanceHarness(redis, { approvals: { changesAbove: 2 } });
});
afterEach(async () => {
  await g?.close();
});

/** A downgrade manifest of these users, planned as `seatflow submit` plans it, and the request the gate receives. */
async function downgradeRequest(emails: string[], requestedBy = ALICE): Promise<{ plan: BatchPlan; request: ChangeRequest; file: string }> {
  const file = g.h.writeManifest('downgrade.csv', ['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)]);
  const plan = await g.h.plan(file);
  const content = readFileSync(file);
  const options = { action: undefined, skipInvalid: true };
  return {
    plan,
    file,
    request: {
      kind: 'batch',
      id: batchIdOf(createHash('sha256').update(content).digest('hex'), g.h.server.url, options),
      subject: plan.source.path,
      target: g.h.server.url,
      sim: true,
      plan: fingerprintOfBatchPlan(plan),
      guardrails: [],
      input: batchInputOf({ path: file, content, skipInvalid: true, options }),
      requestedBy,
      reason: 'HR-1234',
    },
  };
}

const queueOf = (plan: BatchPlan) => async () => {
  const submitted = await g.h.system.submit(plan, { options: { action: undefined, skipInvalid: true } });
  return { id: submitted.batch.id, created: submitted.created };
};

const downgradesIn = async () => (await g.h.mutations()).filter((m) => /downgrade/i.test(m.operation));

describe('approvals: the two-person rule', { timeout: 60_000 }, () => {
  it('a batch over the threshold waits until a different operator approves it, then runs exactly the approved plan', async () => {
    const emails = membersOf(g.h, 4);
    const { plan, request } = await downgradeRequest(emails);
    const submitted = await g.governance.gate.submit(request, queueOf(plan));
    expect(submitted.status).toBe('awaiting-approval');
    if (submitted.status !== 'awaiting-approval') return;
    expect(submitted.request).toMatchObject({ id: request.id, state: 'awaiting-approval', requestedBy: { name: 'alice' }, reason: 'HR-1234', changes: 4, callsToApply: 4, why: ['4 changes, more than governance.approvals.changesAbove (2)'] });
    // Waiting: no batch, no job, no change at the service, whoever runs workers meanwhile.
    g.h.startWorkers();
    expect(await g.h.system.store.get(request.id)).toBeUndefined();
    expect(await downgradesIn()).toEqual([]);

    const approvedHash = submitted.request.planHash;
    const approved = await g.governance.gate.approve(request.id, BOB, { planHash: approvedHash, reason: 'checked with HR' }, g.kinds);
    expect(approved.status).toBe('queued');
    if (approved.status !== 'queued') return;
    expect(approved.queued.id).toBe(request.id);
    expect(approved.request).toMatchObject({ state: 'queued', approvedBy: 'bob', approvedHash, resultId: request.id });

    const batch = await g.h.waitForState(request.id, ['finished']);
    expect(batch.counts.succeeded).toBe(4);
    // Exactly the approved plan: the rows queued hash to the approved hash, and the service saw those changes only.
    const queuedRows = await Promise.all((await g.h.system.store.rowNumbers(request.id)).map((row) => g.h.system.store.getRow(request.id, row)));
    expect(queuedRows.map((row) => row!.target.email).sort()).toEqual([...emails].sort());
    expect(planHashOf('batch', g.h.server.url, fingerprintOfBatchPlan({ rows: queuedRows.map((row) => row!), summary: plan.summary }).lines)).toBe(approvedHash);
    const downgrades = await downgradesIn();
    expect(downgrades).toHaveLength(4);
    expect(new Set(downgrades.map((m) => m.userId)).size).toBe(4);
    for (const email of emails) expect(seatOf(g.h, email)).toBe('VIEWER');

    // The trail: asked (with the reason), approved (by whom, the hash seen), queued, each row with the service's answer.
    // A row's entry is appended once its outcome is recorded (the outcome finishes the batch): wait for the last ones.
    const readEntries = async () => (await collect(g.governance.audit.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; actor: string; subject: string; reason?: string; data: Record<string, unknown> });
    await expect.poll(async () => (await readEntries()).filter((e) => e.event === 'row.applied' && e.subject === request.id).length, { timeout: 10_000 }).toBe(4);
    const entries = await readEntries();
    expect(entries.filter((e) => e.subject === request.id).map((e) => `${e.event} ${e.actor}`)).toEqual(['change.requested alice', 'change.approved bob', 'change.queued bob', 'row.applied worker', 'row.applied worker', 'row.applied worker', 'row.applied worker']);
    expect(entries.find((e) => e.event === 'change.requested')).toMatchObject({ reason: 'HR-1234', data: { approval: 'required', planHash: approvedHash } });
    expect(entries.find((e) => e.event === 'change.approved')).toMatchObject({ reason: 'checked with HR', data: { planHash: approvedHash, requestedBy: 'alice' } });
    expect(await verifyAuditEntries((async function* () {
      for await (const { raw, id } of g.governance.audit.entries()) yield { raw, where: id };
    })(), { fromStart: true, head: await g.governance.audit.head() })).toMatchObject({ ok: true, entries: 7 });
  });

  it('the submitter cannot approve their own change, nor can a viewer; nothing runs', async () => {
    const { plan, request } = await downgradeRequest(membersOf(g.h, 3));
    const submitted = await g.governance.gate.submit(request, queueOf(plan));
    expect(submitted.status).toBe('awaiting-approval');
    await expect(g.governance.gate.approve(request.id, { ...ALICE, role: 'admin' }, {}, g.kinds)).rejects.toThrow(/alice asked for .* and cannot approve it: a change needs a second person/);
    await expect(g.governance.gate.approve(request.id, { ...ALICE, name: 'ALICE', role: 'approver' }, {}, g.kinds)).rejects.toBeInstanceOf(GovernanceRefusal);
    await expect(g.governance.gate.approve(request.id, VERA, {}, g.kinds)).rejects.toThrow(/vera \(viewer\) may not approve changes/);
    await expect(g.governance.gate.submit({ ...request, requestedBy: VERA }, queueOf(plan))).rejects.toThrow(/may not request changes/);
    expect((await g.governance.gate.get(request.id))?.state).toBe('awaiting-approval');
    expect(await g.h.system.store.get(request.id)).toBeUndefined();
    expect(await downgradesIn()).toEqual([]);
  });

  it('a stale plan is re-planned: it waits for approval again with the difference, and only the new plan runs once approved', async () => {
    const emails = membersOf(g.h, 4);
    const { plan, request } = await downgradeRequest(emails);
    const submitted = await g.governance.gate.submit(request, queueOf(plan));
    if (submitted.status !== 'awaiting-approval') throw new Error('expected to wait');
    const approvedHash = submitted.request.planHash;

    // Live state changes after the plan was shown: someone downgrades one of the users by hand.
    const changedByHand = emails[1]!;
    const userId = [...g.h.server.context.state.users.values()].find((user) => user.email === changedByHand)!.id;
    await g.h.api.users.downgrade(userId, g.h.server.context.state.users.get(userId)!.seats[0]!.planId, { seatType: 'CONTRIBUTOR' });
    const byHand = (await downgradesIn()).length;

    g.h.startWorkers();
    const stale = await g.governance.gate.approve(request.id, BOB, { planHash: approvedHash }, g.kinds);
    expect(stale.status).toBe('replanned');
    if (stale.status !== 'replanned') return;
    expect(stale.difference).toEqual([`row 2: was "downgrade ${changedByHand}: change", now "downgrade ${changedByHand}: no-op"`]);
    // The plan shown again counts again: the user downgraded by hand needs no call.
    expect(stale.request).toMatchObject({ state: 'awaiting-approval', staleDifference: stale.difference, callsToApply: 3 });
    expect(stale.request.planHash).not.toBe(approvedHash);
    expect(stale.request.approvedBy).toBeUndefined();
    // Nothing ran that was not approved.
    expect(await g.h.system.store.get(request.id)).toBeUndefined();
    expect((await downgradesIn()).length).toBe(byHand);

    // The old hash no longer approves anything; the new plan, approved by someone, runs.
    await expect(g.governance.gate.approve(request.id, CAROL, { planHash: approvedHash }, g.kinds)).rejects.toThrow(/the plan of .* changed since you saw it/);
    const approved = await g.governance.gate.approve(request.id, CAROL, { planHash: stale.request.planHash }, g.kinds);
    expect(approved.status).toBe('queued');
    const batch = await g.h.waitForState(request.id, ['finished']);
    expect(batch.counts).toMatchObject({ succeeded: 3, unchanged: 1 });
    expect((await downgradesIn()).length).toBe(byHand + 3);
    const events = (await collect(g.governance.audit.entries())).map(({ raw }) => (JSON.parse(raw) as { event: string }).event).filter((e) => e.startsWith('change.'));
    expect(events).toEqual(['change.requested', 'change.approved', 'change.replanned', 'change.approved', 'change.queued']);
  });

  it('a rejected change is never queued, and asking for it again says who rejected it and why', async () => {
    const { plan, request } = await downgradeRequest(membersOf(g.h, 3));
    await g.governance.gate.submit(request, queueOf(plan));
    await expect(g.governance.gate.reject(request.id, BOB, '  ')).rejects.toThrow(/needs a reason/);
    const rejected = await g.governance.gate.reject(request.id, BOB, 'not before the audit');
    expect(rejected).toMatchObject({ state: 'rejected', rejectedBy: 'bob', rejectionReason: 'not before the audit' });
    await expect(g.governance.gate.approve(request.id, CAROL, {}, g.kinds)).rejects.toThrow(/is rejected/);
    await expect(g.governance.gate.submit(request, queueOf(plan))).rejects.toThrow(/rejected by bob \(not before the audit\): nothing was queued/);
    expect(await g.h.system.store.get(request.id)).toBeUndefined();
  });

  it('queues at once (and records the request) when no limit is crossed; the same change asked again finds its request', async () => {
    const small = await downgradeRequest(membersOf(g.h, 2));
    const queued = await g.governance.gate.submit(small.request, queueOf(small.plan));
    expect(queued).toMatchObject({ status: 'queued', queued: { id: small.request.id, created: true } });
    const entries = (await collect(g.governance.audit.entries())).map(({ raw }) => JSON.parse(raw) as { event: string; data: { approval?: string } });
    expect(entries.map((e) => e.event)).toEqual(['change.requested', 'change.queued']);
    expect(entries[0]!.data.approval).toBe('not required');

    const big = await downgradeRequest(membersOf(g.h, 7).slice(2), BOB);
    const first = await g.governance.gate.submit(big.request, queueOf(big.plan));
    const again = await g.governance.gate.submit(big.request, queueOf(big.plan));
    expect(big.request.plan.changes).toBeGreaterThan(2);
    expect(first).toMatchObject({ status: "awaiting-approval", created: true });
    expect(again).toMatchObject({ status: 'awaiting-approval', created: false, request: { id: big.request.id } });
  });
});
