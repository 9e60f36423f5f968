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

/**
 * The policy's own limits per run (maxChanges, maxShare of the plan's users). A run over one changes nothing: a
 * scheduled run has nobody to ask, so the limit is a stop, not a prompt. Pure.
 */
export function checkRunLimits(changes: number, planUsers: number, limits: Policy['limits']): RunLimitCheck {
  const reasons: string[] = [];
  if (limits.maxChanges !== undefined && changes > limits.maxChanges) {
    reasons.push(`${changes} seat changes, more than the policy's limits.maxChanges (${limits.maxChanges})`);
  }
  if (limits.maxShare !== undefined && planUsers > 0 && changes / planUsers > limits.maxShare) {
    reasons.push(
      `${plural(changes, 'seat change')} ${changes === 1 ? 'is' : 'are'} ${((100 * changes) / planUsers).toFixed(1)}% of the plan's ${plural(planUsers, 'user')}, more than the policy's limits.maxShare (${(100 * limits.maxShare).toFixed(1)}%)`,
    );
  }
  return { changes, planUsers, reasons, over: reasons.length > 0 };
}
