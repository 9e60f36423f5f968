import type { Fixture } from './demo/fixture-schema.js';
import type { RateLimitSettings } from './sim/rate-limit.js';

/** Options of `buildReferenceServer` and `startReferenceServer`. Every field is optional. */
export interface ReferenceServerOptions {
  /** Token of the System Admin (admin@acme.example in the demo). Default `sim-admin-token`. */
  adminToken?: string;
  /** A fixture (docs/reference-server.md#fixtures) instead of the demo organization. */
  data?: Fixture;
  /** Generated users in the demo organization besides the story users. Default 300; 100,000 for benchmarks. */
  users?: number;
  /** Per-token rate limit. Default 300 requests per 60 s; `'off'` disables it. */
  rateLimit?: RateLimitSettings | 'off';
  /** Fault spec, e.g. `503:0.1,500-after:0.05,delay:250ms:0.05` (docs/reference-server.md#faults). Default none. */
  faults?: string;
  /** Seed of the fault draws, so a run's faults repeat. Default 1. */
  faultSeed?: number;
  /** Seed of generated ids. Default `seatflow`. */
  idSeed?: number | string;
  /** Start time of the sim clock (epoch ms or ISO); real time when absent. */
  now?: number | string;
  /** Reactivation window in days. Default 30, as the real service documents (docs/service.md#reactivation-window). */
  reactivationWindowDays?: number;
  /**
   * How long a Provisional Member seat given by add user lasts before it drops to a free seat, in days of the server's
   * clock (docs/service.md#provisional-members). Default 30, the least the service promises.
   */
  provisionalReviewDays?: number;
  /**
   * Answer as Smartsheet Gov (`api.smartsheetgov.com`): deactivate and reactivate are unavailable there and are
   * refused with 403/9007 (docs/service.md#regions). Default false.
   */
  gov?: boolean;
  /** How long plan names stay cached for list-user-plans. Default 4 hours; 0 disables the cache. */
  planNameCacheTtlMs?: number;
  /** Date from which list webhooks follows the new rules. Default 2026-06-03T00:00:00Z. */
  webhookSunset?: string | number;
  /**
   * Date from which the VIEWER seat type is retired (CONTRIBUTOR in downgrade bodies, the seatType filter and answers).
   * Default 2026-10-30T00:00:00Z; set a later date to test the earlier behaviour.
   */
  viewerSunset?: string | number;
  /** Timeout of one webhook verification call. Default 5000 ms. */
  verificationTimeoutMs?: number;
  /**
   * How long a webhook's events gather before they go out as one callback. Default 250 ms (the commercial service waits
   * about a minute; a test server answers within seconds).
   */
  callbackDebounceMs?: number;
  /**
   * The waits before each retry of a failed callback; after the last retry the webhook is disabled
   * (`DISABLED_CALLBACK_FAILED`). Default the service's 14 attempts: 1, 2, 4 … 64 s, then every 3 hours.
   */
  callbackRetryDelaysMs?: readonly number[];
  /** Timeout of one callback attempt. Default 10 000 ms. */
  callbackTimeoutMs?: number;
  /** Largest JSON body. Default 5 MB. */
  jsonBodyLimitBytes?: number;
  /** fastify request logging. Default off. */
  logger?: boolean;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { requests: 300, perSeconds: 60 };
