import { describe, expect, it } from 'vitest';
import { RowStore } from '../../src/manifest/row-store.js';
import type { BatchPlan } from '../../src/plan/planned-row.js';
import { useBatchHarnesses } from '../helpers/batch-fixtures.js';

const batches = useBatchHarnesses();

describe('submitting a plan kept compact (RowStore)', () => {
  it('queues the same batch as the same rows held as an array: record, saved rows, outcomes at once, jobs', async () => {
    const h = await batches.open({ rateLimit: 'off', users: 1500 });
    const emails = await h.deactivatableEmails(1_100);
    // More than two slices of 500 rows to run, and rows that end at once between them.
    const lines = emails.flatMap((email, i) => [`${email},deactivate`, ...(i % 3 === 0 ? [`nobody.${i}@acme.example,deactivate`] : []), ...(i % 50 === 0 ? ['sam.taylor@gmail.com,reactivate', 'not-an-email,deactivate'] : [])]);
    const compact = await h.plan(h.writeManifest('m.csv', ['email,action', ...lines]));
    expect(compact.rows).toBeInstanceOf(RowStore);
    const asArray: BatchPlan = { ...compact, rows: [...compact.rows] };

    const a = await h.system.submit(compact, { identity: 'compact' });
    const b = await h.system.submit(asArray, { identity: 'array' });
    expect(a.jobsAdded).toBe(1_100);
    expect(b.jobsAdded).toBe(a.jobsAdded);
    const { id: _a, createdAt: _ac, ...recordA } = a.batch;
    const { id: _b, createdAt: _bc, ...recordB } = b.batch;
    expect(recordA).toEqual(recordB);
    const s = compact.summary;
    expect(recordA).toMatchObject({ total: compact.rows.length, queued: 1_100, counts: expect.objectContaining({ unchanged: s['no-op'], skipped: s.refused + s['not-found'] + s.conflict + s.invalid }) });
    expect(s['not-found'] + s.invalid).toBeGreaterThan(0);

    expect(await h.system.store.rowNumbers(a.batch.id)).toEqual(await h.system.store.rowNumbers(b.batch.id));
    for (const planned of compact.rows) {
      const [savedA, savedB] = await Promise.all([h.system.store.getRow(a.batch.id, planned.row), h.system.store.getRow(b.batch.id, planned.row)]);
      expect(savedA).toEqual(savedB);
      const [outcomeA, outcomeB] = await Promise.all([h.system.store.getOutcome(a.batch.id, planned.row), h.system.store.getOutcome(b.batch.id, planned.row)]);
      expect({ ...outcomeA, batchId: '', finishedAt: '' }).toEqual({ ...outcomeB, batchId: '', finishedAt: '' });
      const [jobA, jobB] = await Promise.all([h.system.queue.getJob(`${a.batch.id}-${planned.row}`), h.system.queue.getJob(`${b.batch.id}-${planned.row}`)]);
      expect(jobA === undefined).toBe(planned.verdict !== 'change');
      expect(jobB === undefined).toBe(planned.verdict !== 'change');
      if (planned.verdict === 'change') expect(savedA).toEqual(planned);
    }
  }, 120_000);
});
