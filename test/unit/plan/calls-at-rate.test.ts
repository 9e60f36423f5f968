import { describe, expect, it } from 'vitest';
import { callsToApply, callsToApplyLine, durationAtRate } from '../../../src/plan/calls-at-rate.js';
import { formatPlan } from '../../../src/plan/format-plan.js';
import type { BatchPlan } from '../../../src/plan/planned-row.js';
import { syncPlanCalls } from '../../../src/sync/sync-plan-calls.js';
import { leaverCalls } from '../../../src/workflow/leaver-calls.js';

const RATE = { requests: 300, perSeconds: 60 };

describe('the calls a plan makes once applied, at the configured rate', () => {
  it('says how many calls and how long they take at the rate, and nothing to wait for when none', () => {
    expect(callsToApplyLine(callsToApply(1_500, RATE))).toBe('Calls to apply: about 1,500 (about 5.0 minutes at 300 calls per 60 s, the configured rate)');
    expect(callsToApplyLine(callsToApply(3, RATE))).toBe('Calls to apply: about 3 (about 1 s at 300 calls per 60 s, the configured rate)');
    expect(callsToApplyLine(callsToApply(11, RATE))).toBe('Calls to apply: about 11 (about 2 s at 300 calls per 60 s, the configured rate)');
    expect(callsToApplyLine(callsToApply(0, RATE))).toBe('Calls to apply: none');
    expect(durationAtRate(100_054, RATE)).toBe('5.6 hours');
  });

  it('is one object for the control API and the line: the count, its seconds at the rate (to a tenth), the rate', () => {
    expect(callsToApply(11, RATE)).toEqual({ toApply: 11, expectedSeconds: 2.2, rate: { requests: 300, perSeconds: 60 } });
    expect(callsToApply(1_500, { requests: 100, perSeconds: 60 })).toEqual({ toApply: 1_500, expectedSeconds: 900, rate: { requests: 100, perSeconds: 60 } });
    // The config's rate carries more (headroom, burst): the answer names the rate only.
    expect(callsToApply(0, { ...RATE, headroom: 0.005 } as typeof RATE)).toEqual({ toApply: 0, expectedSeconds: 0, rate: RATE });
  });

  it('counts a batch plan\'s rows to change, printed under its summary when the rate is given', () => {
    const plan: BatchPlan = { rows: [], summary: { total: 9, change: 6, 'no-op': 2, refused: 1, 'not-found': 0, conflict: 0, invalid: 0 }, apiCalls: 3, source: { path: '/m.csv', sha256: 'x', format: 'csv' } };
    const lines = formatPlan(plan, { rate: RATE }).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Calls to apply: about 6 (about 1 s at 300 calls per 60 s, the configured rate)');
    expect(lines.at(-2)).toMatch(/^9 rows: 6 change/);
    expect(formatPlan(plan)).not.toContain('Calls to apply');
  });

  it('counts three calls a leaver (two when already deactivated, none refused), and a sync\'s joiners, movers and undos', () => {
    expect(leaverCalls([{ verdict: 'deactivate-now' }, { verdict: 'deactivate-on-date' }, { verdict: 'already-deactivated' }, { verdict: 'refused' }])).toBe(8);
    const plan = {
      joiners: [{ verdict: 'change' }, { verdict: 'change' }, { verdict: 'no-op' }],
      movers: [{ verdict: 'change' }, { verdict: 'refused' }],
      undos: [{}],
      leavers: { leavers: [{ verdict: 'deactivate-now' }] },
    } as unknown as Parameters<typeof syncPlanCalls>[0];
    expect(syncPlanCalls(plan)).toBe(2 * 2 + 1 + 1 + 3);
  });
});
