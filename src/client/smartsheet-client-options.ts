import type { Dispatcher } from 'undici';
import type { RetryPolicy } from './retry-policy.js';

/** What `beforeRequest` learns about the HTTP call about to be made. */
export interface BeforeRequestInfo {
  /** Client operation, e.g. `users.deactivate`, `users.list`. */
  operation: string;
  method: string;
  /** The path below the base URL, e.g. `/users/123/deactivate` (seatflow's own-change ledger reads the user from it). */
  path?: string;
  /** The JSON body about to be sent, if any. */
  json?: unknown;
  /** Requests this call counts for against the service's rate limit: 1, or 10 for uploads (docs/service.md#rate-limits). */
  cost: number;
  signal?: AbortSignal | undefined;
}

/** What `onResponse` learns about every HTTP answer (not about connections that failed). */
export interface ResponseInfo {
  operation: string;
  method: string;
  status: number;
  errorCode?: number | undefined;
  retryAfterMs?: number | undefined;
  durationMs: number;
  /** The answer's `Date` header (epoch ms, whole seconds): the service's clock, for seatflow's service clock. */
  serviceDateMs?: number | undefined;
}

export interface ClientTimeouts {
  /** Time to open a connection (TLS included). Default 10 000 ms. Applies only when the client makes its dispatcher. */
  connectMs?: number;
  /** Time from sending to the response headers. Default 60 000 ms (enabling a webhook holds the PUT until verified). */
  headersMs?: number;
  /** Longest silence while reading a response body. Default 30 000 ms. */
  bodyMs?: number;
}

export interface SmartsheetClientOptions {
  /**
   * Default `https://api.smartsheet.com/2.0`. Others: `https://api.smartsheet.eu/2.0`, `https://api.smartsheetgov.com/2.0`,
   * `https://api.smartsheet.au/2.0`, or the reference server's URL.
   */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …`; never written into an error, log line or report. Required. */
  accessToken: string;
  /** `Smartsheet-Change-Agent`, shown in webhook callbacks. At most 512 characters are sent (the service trims the front). */
  changeAgent?: string;
  /** The organization named in `smartsheet-integration-source: SCRIPT,<org>,seatflow`. Default empty. */
  integrationOrg?: string;
  /** Default `seatflow/<version> node/<version>`. */
  userAgent?: string;
  timeouts?: ClientTimeouts;
  /** An undici dispatcher to share. Default: the client's own keep-alive Agent, closed by `close()`. */
  dispatcher?: Dispatcher;
  /**
   * Opt-in retries of idempotent calls (GET, PUT, DELETE) that failed with ServiceUnavailable. Default: none, because
   * seatflow's queue owns retries. POST is never retried.
   */
  retry?: RetryPolicy;
  /**
   * Awaited before every HTTP call: each page of a list and each retry included. seatflow's queue plugs its shared
   * request budget in here. What it throws is passed to the caller unchanged.
   */
  beforeRequest?: (call: BeforeRequestInfo) => Promise<void>;
  /** Called after every HTTP answer, success or error. It must not throw; what it throws is ignored. */
  onResponse?: (info: ResponseInfo) => void;
  /**
   * When the service retired the VIEWER seat type (epoch ms or ISO date). Default 2026-10-30T00:00:00Z, the real
   * service's date. From then on the client sends CONTRIBUTOR wherever a VIEWER or CONTRIBUTOR seat is asked for
   * (downgrade body, seatType filter); before it, VIEWER. Set it for a region or a test service on another date.
   */
  viewerSunset?: number | string;
  /** The clock compared with `viewerSunset`. Default `Date.now` (the wall clock). */
  now?: () => number;
}

export const DEFAULT_BASE_URL = 'https://api.smartsheet.com/2.0';
export const DEFAULT_TIMEOUTS = { connectMs: 10_000, headersMs: 60_000, bodyMs: 30_000 } as const satisfies Required<ClientTimeouts>;
