import type { Config } from '../../core/config.js';
import { availableCallsOf, type BudgetState, type RequestBudget } from '../../queue/request-budget.js';

/** The request budget as the batch page shows it: what was configured, what the fleet learned, how it was used. */
export interface BudgetView {
  configured: { perMinute: number; bucket: number; headroom: number };
  /** The budget's state() now: the refill and bucket the fleet learned from 429s (the configured ones until then). */
  learned: { perMinute: number; usablePerMinute: number; bucket: number; availableNow: number };
  /** Calls the fleet sent with this token over the last `windowMs` (or since sampling began, if shorter). */
  callsInWindow: number;
  rateLimitedInWindow: number;
  windowMs: number;
  rateLimitedTotal: number;
  pausedForMs: number;
  /**
   * For the chart, oldest first: at each sample, the calls the fleet sent in the `windowMs` before it (or since
   * sampling began, when that is shorter: `spanMs` says). Counted, never extrapolated from a short span.
   */
  series: Array<{ at: number; calls: number; spanMs: number }>;
}

interface Sample {
  at: number;
  calls: number;
  rateLimited: number;
}

/**
 * Samples the fleet-wide budget counters every few seconds so that the batch page can show calls per minute over the
 * last minutes, whoever is watching. Samples are taken only while someone looked at a page in the last `keepMs`
 * (the counters live in Redis; only this history is the server's).
 */
export function createBudgetSampler(
  budget: Pick<RequestBudget, 'counters' | 'state'>,
  rate: Config['rateLimit'],
  options: { everyMs?: number; windowMs?: number; keepMs?: number; now?: () => number } = {},
) {
  const everyMs = options.everyMs ?? 2000;
  const windowMs = options.windowMs ?? 60_000;
  const keepMs = options.keepMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const samples: Sample[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastViewAt = 0;

  const sample = async (): Promise<Sample> => {
    const { calls, rateLimited } = await budget.counters();
    const at = now();
    const taken = { at, calls, rateLimited };
    samples.push(taken);
    while (samples.length > 1 && (samples[0]?.at ?? at) < at - keepMs) samples.shift();
    return taken;
  };
  const ensureRunning = () => {
    lastViewAt = now();
    if (timer !== undefined) return;
    timer = setInterval(() => {
      if (now() - lastViewAt > keepMs) {
        clearInterval(timer);
        timer = undefined;
        samples.length = 0;
        return;
      }
      sample().catch(() => undefined);
    }, everyMs);
    timer.unref();
  };

  return {
    async view(): Promise<BudgetView> {
      ensureRunning();
      const [latest, state] = await Promise.all([sample(), budget.state()]);
      const first = samples.find((s) => s.at >= latest.at - windowMs) ?? latest;
      return {
        configured: { perMinute: (rate.requests * 60) / rate.perSeconds, bucket: rate.burst === 'auto' ? rate.requests : rate.burst, headroom: rate.headroom },
        learned: learnedOf(state, rate.headroom),
        callsInWindow: latest.calls - first.calls,
        rateLimitedInWindow: latest.rateLimited - first.rateLimited,
        windowMs: Math.max(0, latest.at - first.at),
        rateLimitedTotal: latest.rateLimited,
        pausedForMs: state.pausedForMs,
        series: seriesOf(samples, windowMs),
      };
    },
    close(): void {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
export type BudgetSampler = ReturnType<typeof createBudgetSampler>;

function learnedOf(state: BudgetState, headroom: number): BudgetView['learned'] {
  return {
    perMinute: state.ratePerSecond * 60,
    usablePerMinute: state.ratePerSecond * (1 - headroom) * 60,
    bucket: state.capacity,
    availableNow: availableCallsOf(state),
  };
}

/** At each sample, the calls counted over the window before it: what the service saw, never a rate scaled up. */
function seriesOf(samples: readonly Sample[], windowMs: number): BudgetView['series'] {
  const series: BudgetView['series'] = [];
  let first = 0;
  for (let i = 1; i < samples.length; i += 1) {
    const at = samples[i]!.at;
    while (first < i - 1 && samples[first]!.at < at - windowMs) first += 1;
    const from = samples[first]!;
    series.push({ at, calls: Math.max(0, samples[i]!.calls - from.calls), spanMs: at - from.at });
  }
  return series;
}
