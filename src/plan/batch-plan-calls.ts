import type { BatchPlan } from './planned-row.js';

/**
 * The calls a batch plan makes once applied: one per row to change (plan, run, revert, migrate, a reconciliation's
 * seat changes). Rows already done, refused or not found make none; what the pre-flight read is spent already.
 */
export function batchPlanCalls(plan: Pick<BatchPlan, 'summary'>): number {
  return plan.summary.change;
}
