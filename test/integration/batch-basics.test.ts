import { describe, expect, it } from 'vitest';
import { expectEachUserChangedOnce, useBatchHarnesses } from '../helpers/batch-fixtures.js';

const batches = useBatchHarnesses();

describe('a batch', () => {
  it('ends every row with one outcome, and submitting the same file again queues nothing', async () => {
    const harness = await batches.open({ rateLimit: 'off' });
    const emails = await harness.deactivatableEmails(10);
    const file = harness.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`), 'taylor.brooks@acme.example,deactivate', 'sam.taylor@gmail.com,deactivate', 'nobody.here@acme.example,deactivate']);
    const plan = await harness.plan(file);
    const first = await harness.system.submit(plan);
    expect(first.created).toBe(true);
    expect(first.jobsAdded).toBe(10);
    const again = await harness.system.submit(await harness.plan(file));
    expect(again.created).toBe(false);
    expect(again.batch.id).toBe(first.batch.id);
    expect(again.jobsAdded).toBe(0);
    expect(await harness.system.queue.getJob(`${first.batch.id}-1`)).toBeDefined();

    harness.startWorkers();
    const batch = await harness.waitForState(first.batch.id, ['finished']);
    expect(batch.counts).toEqual({ succeeded: 10, unchanged: 1, skipped: 2, failed: 0, unknown: 0, cancelled: 0 });
    const outcomes = await harness.outcomes(first.batch.id);
    expect(outcomes.map((o) => o.row)).toEqual([...Array(13).keys()].map((i) => i + 1));
    expect(outcomes.find((o) => o.email === 'sam.taylor@gmail.com')).toMatchObject({ outcome: 'skipped', category: 'Refused' });
    expect(outcomes.find((o) => o.email === 'nobody.here@acme.example')).toMatchObject({ outcome: 'skipped', category: 'NotFound' });
    await expectEachUserChangedOnce(harness, outcomes, 'deactivateUser');

    // A third submission after the end finds the finished batch.
    const third = await harness.system.submit(plan);
    expect(third).toMatchObject({ created: false, jobsAdded: 0 });
    expect(third.batch.state).toBe('finished');
  });

  it('changes each user once through 30% injected 500/503/resets, including ones applied before the error', async () => {
    const harness = await batches.open({ rateLimit: 'off' });
    const emails = await harness.deactivatableEmails(40);
    const file = harness.writeManifest('m.csv', ['email,action', ...emails.map((e) => `${e},deactivate`)]);
    const plan = await harness.plan(file);
    await fetch(`${harness.server.origin}/_sim/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${harness.server.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ spec: '503:0.08,500:0.04,reset:0.04,500-after:0.07,reset-after:0.07', seed: 7 }),
    });
    const { batch: submitted } = await harness.system.submit(plan);
    harness.startWorkers({ concurrency: 6 });
    const batch = await harness.waitForState(submitted.id, ['finished'], 90_000);
    const outcomes = await harness.outcomes(submitted.id);
    expect(outcomes).toHaveLength(40);
    expect(outcomes.filter((o) => o.outcome === "failed")).toEqual([]);
    expect(batch.counts.succeeded + batch.counts.unchanged).toBe(40);
    // Some rows were confirmed after an ambiguous answer and found already done.
    expect(outcomes.some((o) => o.confirmed === true)).toBe(true);
    expect(outcomes.some((o) => o.attempts > 1)).toBe(true);
    await expectEachUserChangedOnce(harness, outcomes, 'deactivateUser');
  });
});
