import type { Policy } from './policy.js';
import { plural } from '../core/plural.js';

export interface RunLimitCheck {
  /** Rows the plan would change. */
  changes: number;
  /** Users holding a seat in the plan (the share's denominator). */
  planUsers: number;
  /** Which limit was crossed and by how much; empty when the run may go on. */
  reasons: string[];
  over: boolean;
}

/** Per-run limits: how many seat changes, and what share (0–1) of the plan's users, one run may make. */
export type RunLimits = Policy['limits'];

/** How a refusal names the limits it checked: the policy's own, or a schedule's (`schedule add --max-changes`). */
export const POLICY_LIMITS = { maxChanges: "the policy's limits.maxChanges", maxShare: "the policy's limits.maxShare" } as const;
export const SCHEDULE_LIMITS = { maxChanges: "the schedule's --max-changes", maxShare: "the schedule's --max-share" } as const;

/**
 * Limits per run (maxChanges, maxShare of the plan's users). A run over one changes nothing: a scheduled run has
 * nobody to ask, so the limit is a stop, not a prompt. Pure.
 */
export function checkRunLimits(changes: number, planUsers: number, limits: RunLimits, names: { maxChanges: string; maxShare: string } = POLICY_LIMITS): RunLimitCheck {
  const reasons: string[] = [];
  if (limits.maxChanges !== undefined && changes > limits.maxChanges) {
    reasons.push(`${changes} seat changes, more than ${names.maxChanges} (${limits.maxChanges})`);
  }
  if (limits.maxShare !== undefined && planUsers > 0 && changes / planUsers > limits.maxShare) {
    reasons.push(
      `${plural(changes, 'seat change')} ${changes === 1 ? 'is' : 'are'} ${((100 * changes) / planUsers).toFixed(1)}% of the plan's ${plural(planUsers, 'user')}, more than ${names.maxShare} (${(100 * limits.maxShare).toFixed(1)}%)`,
    );
  }
  return { changes, planUsers, reasons, over: reasons.length > 0 };
}
