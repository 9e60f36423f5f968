import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobRegistry } from '../../jobs/registry.js';
import { planRevert, revertBatchOptions } from '../../src/governance/revert/plan-revert.js';
import { fingerprintOfBatchPlan } from '../../src/governance/approvals/plan-fingerprint.js';
import { batchIdOf } from '../../src/queue/submit-batch.js';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.js';
import { ALICE, BOB, GUARDRAILS, createGovernanceHarness, membersOf, seatOf, type GovernanceHarness } from '../helpers/governance-harness.js';

let redis: TestRedis;
let g: GovernanceHarness;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  g = await createGovernanceHarness(redis, { approvals: { kinds: ['revert'] } });
});
afterEach(async () => {
  await g?.close();
});

/** Runs a manifest as `seatflow run` does (plan, submit, workers) and resolves its finished batch's id. */
async function runManifest(name: string, lines: string[]): Promise<string> {
  const plan = await g.h.plan(g.h.writeManifest(name, lines));
  const submitted = await g.h.system.submit(plan);
  await g.h.waitForState(submitted.batch.id, ['finished']);
  return submitted.batch.id;
}

const revertOf = (batchId: string) => planRevert({ batchId, store: g.h.system.store, registry: createJobRegistry(), api: g.h.api, guardrails: GUARDRAILS, reactivationWindowDays: 30 });

describe('revert of a batch, from each row\'s state before', { timeout: 90_000 }, () => {
  it('reverts a downgrade batch: the mutation log shows each user back on their seat once', async () => {
    const emails = membersOf(g.h, 5);
    g.h.startWorkers();
    const batchId = await runManifest('downgrade.csv', ['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)]);
    for (const email of emails) expect(seatOf(g.h, email)).toBe('VIEWER');
    // Each row's state just before its change was read and kept.
    const before = await g.h.system.store.statesBefore(batchId);
    expect([...before.values()]).toEqual(emails.map(() => expect.objectContaining({ seatType: 'MEMBER' })));

    const revert = await revertOf(batchId);
    expect(revert).toMatchObject({ changed: 5, unchanged: 0, plan: { summary: { total: 5, change: 5, refused: 0 } } });
    expect(Array.from(revert.plan.rows, (row) => [row.actionName, row.target.email, row.verdict])).toEqual(emails.map((email) => ['upgrade', email, 'change']));
    expect(revert.plan.rows.at(0)!.reason).toMatch(new RegExp(`^undoes row 1 of ${batchId}`));

    // A revert goes through the usual gate: here every revert waits for a second person.
    const options = revertBatchOptions(batchId);
    const id = batchIdOf(revert.plan.source.sha256, g.h.server.url, options);
    const request = { kind: 'revert' as const, id, subject: revert.plan.source.path, target: g.h.server.url, sim: true, plan: fingerprintOfBatchPlan(revert.plan), guardrails: [], input: { batchId }, requestedBy: ALICE, reason: 'INC-77: wrong list' };
    const gated = await g.governance.gate.submit(request, async () => {
      const submitted = await g.h.system.submit(revert.plan, { options });
      return { id: submitted.batch.id, created: submitted.created };
    });
    expect(gated.status).toBe('awaiting-approval');
    const approved = await g.governance.gate.approve(id, BOB, {}, g.kinds);
    expect(approved).toMatchObject({ status: 'queued', queued: { id } });
    const done = await g.h.waitForState(id, ['finished']);
    expect(done.counts.succeeded).toBe(5);

    const mutations = await g.h.mutations();
    for (const email of emails) {
      const userId = [...g.h.server.context.state.users.values()].find((user) => user.email === email)!.id;
      const ops = mutations.filter((m) => m.userId === userId).map((m) => m.operation);
      expect(ops, email).toEqual(['downgradeUser', 'upgradeUser']);
      expect(seatOf(g.h, email)).toBe('MEMBER');
    }
    // Reverting again finds the revert's batch: nobody is upgraded twice.
    const again = await revertOf(batchId);
    expect(batchIdOf(again.plan.source.sha256, g.h.server.url, options)).toBe(id);
  });

  it('ends a seat change someone made between the plan and the row unchanged, sends nothing, and leaves it out of the revert', async () => {
    const emails = membersOf(g.h, 3);
    const plan = await g.h.plan(g.h.writeManifest('downgrade.csv', ['email,action,seatType', ...emails.map((email) => `${email},downgrade,CONTRIBUTOR`)]));
    // Planned while every user held MEMBER; an admin downgrades the second by hand before the batch runs. The service
    // answers the batch's call 200 whether or not it changes anything, so only a read before it can tell.
    const byHand = [...g.h.server.context.state.users.values()].find((user) => user.email === emails[1])!;
    await g.h.api.users.downgrade(byHand.id, plan.rows.at(1)!.target.planId!, { seatType: 'CONTRIBUTOR' });
    const submitted = await g.h.system.submit(plan);
    g.h.startWorkers();
    await g.h.waitForState(submitted.batch.id, ['finished']);

    const outcomes = await g.h.outcomes(submitted.batch.id);
    expect(outcomes.map((o) => o.outcome)).toEqual(['succeeded', 'unchanged', 'succeeded']);
    expect(outcomes[1]!.message).toMatch(/^already CONTRIBUTOR in plan \d+ when the row ran \(changed since the plan\): nothing sent$/);
    const downgrades = (await g.h.mutations()).filter((m) => m.userId === byHand.id && m.operation === 'downgradeUser');
    expect(downgrades).toHaveLength(1);

    // Undoing the batch gives back the seats it changed, not the one the admin changed.
    const revert = await revertOf(submitted.batch.id);
    expect(Array.from(revert.plan.rows, (row) => row.target.email)).toEqual([emails[0], emails[2]]);
  });

  it('plans the inverse of each kind of row and refuses what cannot be undone, with the reason', async () => {
    const [deactivated, aliased, removed, target] = membersOf(g.h, 4);
    g.h.startWorkers();
    const batchId = await runManifest('mixed.csv', [
      'email,action,alternateEmail,transferTo,transferSheets',
      `${deactivated},deactivate,,,`,
      `${aliased},add-alternate-email,${aliased!.replace('@', '.alias@')},,`,
      `${removed},remove,,${target},true`,
    ]);
    const outcomes = await g.h.outcomes(batchId);
    expect(outcomes.map((o) => o.outcome)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    const revert = await revertOf(batchId);
    const rows = Array.from(revert.plan.rows, (row) => ({ action: row.actionName, who: row.target.email ?? row.action, verdict: row.verdict, rule: row.rule, reason: row.reason }));
    expect(rows).toEqual([
      { action: 'reactivate', who: deactivated, verdict: 'change', rule: undefined, reason: expect.stringMatching(/^undoes row 1 of /) },
      { action: 'delete-alternate-email', who: aliased, verdict: 'change', rule: undefined, reason: expect.stringMatching(/^undoes row 2 of /) },
      { action: 'remove', who: expect.anything(), verdict: 'refused', rule: 'not-invertible', reason: expect.stringMatching(/row 3 of .* cannot be undone: a removal cannot be undone/) },
    ]);

    const submitted = await g.h.system.submit(revert.plan, { options: revertBatchOptions(batchId) });
    const done = await g.h.waitForState(submitted.batch.id, ['finished']);
    expect(done.counts).toMatchObject({ succeeded: 2, skipped: 1 });
    const state = [...g.h.server.context.state.users.values()];
    expect(state.find((user) => user.email === deactivated)?.status).toBe('ACTIVE');
    expect(state.find((user) => user.email === aliased)?.alternateEmails ?? []).toEqual([]);
  });

  it('refuses to revert a batch still running, or one that does not exist', async () => {
    const plan = await g.h.plan(g.h.writeManifest('d.csv', ['email,action', `${membersOf(g.h, 1)[0]},deactivate`]));
    const submitted = await g.h.system.submit(plan);
    await expect(revertOf(submitted.batch.id)).rejects.toThrow(/is queued: a batch is reverted once it has ended/);
    await expect(revertOf('b000000000000')).rejects.toThrow(/no batch b000000000000/);
  });
});
