import { describe, expect, it } from 'vitest';
import { createPlanPreviews, type PlanPreview } from '../../../src/control/dashboard/plan-previews.js';

const preview = (size: number): PlanPreview => ({ bytes: Buffer.alloc(size), format: 'csv', name: 'm.csv', action: undefined, skipInvalid: false, ignoreColumns: [], needsConfirmation: false });

describe('createPlanPreviews', () => {
  it('keeps a preview under an unguessable id until it expires', () => {
    let clock = 0;
    const previews = createPlanPreviews({ ttlMs: 1000, now: () => clock });
    const id = previews.add(preview(10));
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(previews.get(id)?.bytes.length).toBe(10);
    clock = 1001;
    expect(previews.get(id)).toBeUndefined();
  });

  it('drops the oldest previews past the count or the bytes held, never the newest', () => {
    const previews = createPlanPreviews({ max: 2, maxBytes: 100 });
    const a = previews.add(preview(10));
    const b = previews.add(preview(10));
    const c = previews.add(preview(10));
    expect([previews.get(a), previews.get(b)?.bytes.length, previews.get(c)?.bytes.length]).toEqual([undefined, 10, 10]);
    const big = previews.add(preview(150));
    expect(previews.get(b)).toBeUndefined();
    expect(previews.get(c)).toBeUndefined();
    expect(previews.get(big)?.bytes.length).toBe(150);
  });
});
