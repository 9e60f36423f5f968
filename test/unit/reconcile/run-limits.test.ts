import { describe, expect, it } from 'vitest';
import { checkRunLimits } from '../../../src/reconcile/run-limits.js';

describe('checkRunLimits', () => {
  it('passes within maxChanges and maxShare, and without limits', () => {
    expect(checkRunLimits(5, 100, { maxChanges: 5, maxShare: 0.05 }).over).toBe(false);
    expect(checkRunLimits(5000, 100, {}).over).toBe(false);
  });

  it('says which limit a run crosses and by how much', () => {
    const check = checkRunLimits(12, 100, { maxChanges: 10, maxShare: 0.1 });
    expect(check.over).toBe(true);
    expect(check.reasons).toEqual([
      "12 seat changes, more than the policy's limits.maxChanges (10)",
      "12 seat changes are 12.0% of the plan's 100 users, more than the policy's limits.maxShare (10.0%)",
    ]);
  });
});
