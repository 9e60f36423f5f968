import type { RequestBudget } from '../../queue/request-budget.js';

export interface BudgetRates {
  /** Calls the fleet sent with this token over the last `windowMs` (or since the server started, if shorter). */
  callsInWindow: number;
  rateLimitedInWindow: number;
  windowMs: number;
  rateLimitedTotal: number;
  pausedForMs: number;
}

/**
 * Samples the fleet-wide budget counters every few seconds so that the batch page can show the rate of calls over the
 * last minute, whoever is watching. Samples are taken only while someone looked at a page in the last minute.
 */
export function createBudgetSampler(budget: Pick<RequestBudget, 'counters' | 'pausedFor'>, options: { everyMs?: number; windowMs?: number } = {}) {
  const everyMs = options.everyMs ?? 2000;
  const windowMs = options.windowMs ?? 60_000;
  const samples: Array<{ at: number; calls: number; rateLimited: number }> = [];
  let timer: NodeJS.Timeout | undefined;
  let lastViewAt = 0;

  const sample = async () => {
    const { calls, rateLimited } = await budget.counters();
    const at = Date.now();
    samples.push({ at, calls, rateLimited });
    while (samples.length > 1 && (samples[0]?.at ?? at) < at - windowMs) samples.shift();
    return { at, calls, rateLimited };
  };
  const ensureRunning = () => {
    lastViewAt = Date.now();
    if (timer !== undefined) return;
    timer = setInterval(() => {
      if (Date.now() - lastViewAt > windowMs) {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      sample().catch(() => undefined);
    }, everyMs);
    timer.unref();
  };

  return {
    async rates(): Promise<BudgetRates> {
      ensureRunning();
      const [now, pausedForMs] = await Promise.all([sample(), budget.pausedFor()]);
      const first = samples[0] ?? now;
      return {
        callsInWindow: now.calls - first.calls,
        rateLimitedInWindow: now.rateLimited - first.rateLimited,
        windowMs: Math.max(0, now.at - first.at),
        rateLimitedTotal: now.rateLimited,
        pausedForMs,
      };
    },
    close(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
export type BudgetSampler = ReturnType<typeof createBudgetSampler>;
