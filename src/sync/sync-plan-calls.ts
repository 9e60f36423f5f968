import { leaverCalls } from '../workflow/leaver-calls.js';
import type { SyncPlan } from './sync-plan.js';

/**
 * The calls a sync plan makes once applied, at most: a joiner's add (or reactivation) and seat change, a mover's seat
 * change, an undone offboarding's reactivation, and the leavers' offboarding (leaver-calls.ts). The seat steps' shared
 * reads (100 joiners a call) and a transfer target's read are left out: a few calls in all.
 */
export function syncPlanCalls(plan: Pick<SyncPlan, 'joiners' | 'movers' | 'undos' | 'leavers'>): number {
  const changing = <T extends { verdict: string }>(items: readonly T[]) => items.filter((item) => item.verdict === 'change').length;
  return 2 * changing(plan.joiners) + changing(plan.movers) + plan.undos.length + leaverCalls(plan.leavers?.leavers ?? []);
}
