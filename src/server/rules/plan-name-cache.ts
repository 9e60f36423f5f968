import type { PlanRecord } from '../state/records.js';

/**
 * Plan names as list-user-plans reports them: read through a cache that may be stale after an organization rename,
 * as the real service's is for hours (docs/service.md#user-plans). TTL 0 turns the cache off.
 */
export interface PlanNameCache {
  get(plan: PlanRecord): string;
  clear(): void;
}

export function createPlanNameCache(now: () => number, ttlMs: number): PlanNameCache {
  const entries = new Map<number, { name: string; loadedAt: number }>();
  return {
    get(plan) {
      const entry = entries.get(plan.id);
      const time = now();
      if (entry !== undefined && time - entry.loadedAt < ttlMs) return entry.name;
      entries.set(plan.id, { name: plan.name, loadedAt: time });
      return plan.name;
    },
    clear() {
      entries.clear();
    },
  };
}
