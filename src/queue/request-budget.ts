import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { QueueKeys } from './queue-keys.js';
import { tokenKey } from './queue-keys.js';

/**
 * One request budget per access token, shared by every worker on every machine through Redis.
 *
 * Pacing is GCRA (the generic cell rate algorithm): Redis keeps one "theoretical arrival time" per token, and each
 * call reserves the next slot atomically, so the fleet as a whole sends one call every `interval` ms with at most
 * `burst` back to back, and never more than the service's window allows wherever the window starts. rate-limiter-
 * flexible was considered: its Redis limiters count in fixed windows (a fleet can spend a whole window at the end of
 * one and again at the start of the next) and its even spreading happens in each process, not across the fleet.
 *
 * A 429 sets a pause-until time in Redis that every call checks first: the whole fleet waits, not just one worker.
 */
export interface RequestBudgetOptions {
  redis: Redis;
  keys: QueueKeys;
  accessToken: string;
  /** Calls per window and the share kept unused; e.g. 300 per 60 s with 0.05 headroom paces 285 per minute. */
  rate: { requests: number; perSeconds: number; headroom: number };
  /** Calls allowed back to back before pacing applies. Default 3. */
  burst?: number;
  /** Pause after a 429 that names no Retry-After. Default one window (the service's bucket is then full again). */
  pauseWithoutRetryAfterMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/** What the client's `beforeRequest` hook passes. */
export interface RequestInfo {
  operation: string;
  method?: string;
  /** Budget units; uploads cost 10. Default 1. */
  cost?: number;
  signal?: AbortSignal;
}

/** What the client's `onResponse` hook passes. */
export interface ResponseInfo {
  operation: string;
  status?: number | undefined;
  errorCode?: number | undefined;
  retryAfterMs?: number | undefined;
  durationMs?: number;
}

export interface RequestBudget {
  /** Waits for the fleet-wide pause to end and for a slot in the budget. Plug into the client's beforeRequest. */
  beforeRequest(info: RequestInfo): Promise<void>;
  /** Notes 429s (pausing the fleet) and counts calls. Plug into the client's onResponse. */
  onResponse(info: ResponseInfo): Promise<void>;
  /** Pauses every worker using this token for `ms` (extends a longer pause, never shortens it). */
  pause(ms: number): Promise<void>;
  /** Milliseconds until the current pause ends; 0 when not paused. */
  pausedFor(): Promise<number>;
  /** Calls reserved and 429s seen, fleet-wide, since the counters were created. */
  counters(): Promise<{ calls: number; rateLimited: number }>;
  /** The pause to use after a 429 with this Retry-After. */
  pauseAfter429(retryAfterMs: number | undefined): number;
  /** Calls the fleet could send right now without waiting (0 to burst; 0 while paused): the budget's level, for metrics. */
  available(): Promise<number>;
}

// KEYS: tat, pause, calls. ARGV: interval ms, burst, cost. Returns {1, wait} when a slot was reserved, {0, wait}
// while the fleet is paused (nothing reserved). Redis TIME keeps every machine on one clock.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pause = tonumber(redis.call('GET', KEYS[2]) or '0')
if pause > now then return {0, pause - now} end
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allowAt = tat + (tonumber(ARGV[3]) - tonumber(ARGV[2])) * interval
local wait = 0
if allowAt > now then wait = math.ceil(allowAt - now) end
local newTat = tat + tonumber(ARGV[3]) * interval
redis.call('SET', KEYS[1], string.format('%.3f', newTat), 'PX', math.ceil(newTat - now) + 60000)
redis.call('HINCRBY', KEYS[3], 'calls', 1)
return {1, wait}`;

// KEYS: pause, calls. ARGV: pause ms. Keeps the later of the current and the new pause end.
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < untilMs then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1]) + 1000) end
redis.call('HINCRBY', KEYS[2], 'rateLimited', 1)
return untilMs`;

// KEYS: tat, pause. ARGV: interval ms, burst. Reads only.
const AVAILABLE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(redis.call('GET', KEYS[2]) or '0') > now then return 0 end
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local ahead = (tat - now) / tonumber(ARGV[1])
return math.max(0, math.floor(tonumber(ARGV[2]) - ahead))`;

const PAUSED_FOR = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pause = tonumber(redis.call('GET', KEYS[1]) or '0')
if pause > now then return pause - now end
return 0`;

export function createRequestBudget(options: RequestBudgetOptions): RequestBudget {
  const clock = options.clock ?? systemClock;
  const key = tokenKey(options.accessToken);
  const tatKey = options.keys.budget(key);
  const pauseKey = options.keys.pause(key);
  const callsKey = options.keys.calls(key);
  const { requests, perSeconds, headroom } = options.rate;
  const interval = (perSeconds * 1000) / (requests * (1 - headroom));
  const burst = options.burst ?? 3;
  const windowMs = perSeconds * 1000;

  const budget: RequestBudget = {
    async beforeRequest(info) {
      const cost = Math.max(1, info.cost ?? 1);
      for (;;) {
        info.signal?.throwIfAborted();
        const [reserved, wait] = (await options.redis.eval(RESERVE, 3, tatKey, pauseKey, callsKey, interval, burst, cost)) as [number, number];
        if (wait > 0) await clock.sleep(wait, info.signal);
        if (reserved === 1) return;
      }
    },
    async onResponse(info) {
      if (info.status === 429 || info.errorCode === 4003) {
        const ms = budget.pauseAfter429(info.retryAfterMs);
        options.logger?.warn({ operation: info.operation, pauseMs: ms }, 'rate limited (429): pausing every worker of this token');
        await budget.pause(ms);
      }
    },
    async pause(ms) {
      await options.redis.eval(PAUSE, 2, pauseKey, callsKey, Math.max(1, Math.ceil(ms)));
    },
    async pausedFor() {
      return Number(await options.redis.eval(PAUSED_FOR, 1, pauseKey));
    },
    async counters() {
      const values = await options.redis.hmget(callsKey, 'calls', 'rateLimited');
      return { calls: Number(values[0] ?? 0), rateLimited: Number(values[1] ?? 0) };
    },
    async available() {
      return Number(await options.redis.eval(AVAILABLE, 2, tatKey, pauseKey, interval, burst));
    },
    pauseAfter429(retryAfterMs) {
      // The service documents no Retry-After; its advice is to wait out the window. A small margin avoids a second 429.
      return retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs + 250 : (options.pauseWithoutRetryAfterMs ?? windowMs);
    },
  };
  return budget;
}
