/**
 * Per-token rate limit (docs/reference-server.md#rate-limit): a token bucket holding `bucket` calls (default `requests`, one window's
 * worth), refilled with `requests` evenly over `perSeconds` (300 per 60 s by default, as the real service documents).
 * A new token starts with a full bucket. One Map lookup and a little arithmetic per request, so it does not slow
 * reads. Time comes from the sim clock, so a test can move the clock to refill a bucket.
 */
export interface RateLimitSettings {
  requests: number;
  perSeconds: number;
  /** Capacity of each token's bucket; default `requests`. Smaller: less burst at the same refill rate. */
  bucket?: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Whole seconds until `cost` would be available; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(token: string, cost: number): RateDecision;
  configure(settings: RateLimitSettings | 'off'): void;
  settings(): RateLimitSettings | 'off';
  /** Refills every bucket. */
  reset(): void;
}

export function createRateLimiter(initial: RateLimitSettings | 'off', now: () => number): RateLimiter {
  let settings = initial;
  let buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(token, cost) {
      if (settings === 'off') return { allowed: true, retryAfterSeconds: 0 };
      const { requests, perSeconds } = settings;
      const capacity = settings.bucket ?? requests;
      const perMs = requests / (perSeconds * 1000);
      const time = now();
      let bucket = buckets.get(token);
      if (bucket === undefined) {
        bucket = { tokens: capacity, at: time };
        buckets.set(token, bucket);
      } else {
        bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, time - bucket.at) * perMs);
        bucket.at = time;
      }
      // A cost above the whole bucket could never pass; it takes the full bucket instead.
      const need = Math.min(cost, capacity);
      if (bucket.tokens >= need) {
        bucket.tokens -= need;
        return { allowed: true, retryAfterSeconds: 0 };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((need - bucket.tokens) / perMs / 1000)) };
    },
    configure(next) {
      settings = next;
      buckets = new Map();
    },
    settings: () => settings,
    reset() {
      buckets = new Map();
    },
  };
}

/** Parses `300/60`, `300/60s`, `300/60:50` (a bucket of 50) or `off`; `bucket` (e.g. from a flag) sets the bucket too. */
export function parseRateLimit(text: string, bucket?: number): RateLimitSettings | 'off' {
  if (text.trim().toLowerCase() === 'off') return 'off';
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s?\s*(?::\s*(\d+)\s*)?$/.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[2]) <= 0 || (match[3] !== undefined && Number(match[3]) < 1)) {
    throw new Error(`rate limit "${text}" is not N/SECONDS, N/SECONDS:BUCKET or off`);
  }
  const capacity = bucket ?? (match[3] === undefined ? undefined : Number(match[3]));
  if (capacity !== undefined && !(Number.isInteger(capacity) && capacity >= 1)) throw new Error(`rate-limit bucket "${capacity}" is not a whole number of calls, at least 1`);
  return { requests: Number(match[1]), perSeconds: Number(match[2]), ...(capacity === undefined ? {} : { bucket: capacity }) };
}
