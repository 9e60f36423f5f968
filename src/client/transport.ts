import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { ApiError } from './api-error.js';
import { errorFromNetwork, errorFromResponse, errorFromUnreadableSuccess } from './error-factory.js';
import { decideRetry, type RetryPolicy } from './retry-policy.js';
import { SEATFLOW_VERSION } from '../core/version.js';
import { parseRetryAfter } from './retry-after.js';
import { parseJsonSafely, UnsafeIntegerError } from './safe-json.js';
import { buildQuery, type QueryValues } from './query.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUTS,
  type SmartsheetClientOptions,
} from './smartsheet-client-options.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A body other than JSON: raw image bytes or a multipart stream. Built per attempt, since a stream reads once. */
export interface RawBody {
  body: Buffer | AsyncIterable<Uint8Array>;
  contentType: string;
  contentLength: number;
  headers?: Record<string, string>;
}

export interface ApiRequest {
  operation: string;
  method: HttpMethod;
  /** Lower-case path below the base URL, ids already checked, e.g. `/users/123/deactivate`. */
  path: string;
  query?: QueryValues;
  json?: unknown;
  raw?: () => RawBody;
  /** Rate-limit cost for beforeRequest. Default 1. */
  cost?: number;
  signal?: AbortSignal | undefined;
}

export interface Transport {
  /** Sends the call (with the opt-in retries) and hands the parsed 2xx body to `read`, which zod-parses it. */
  send<T>(call: ApiRequest, read: (body: unknown) => T): Promise<T>;
  close(): Promise<void>;
}

const CHANGE_AGENT_MAX = 512;

export function createTransport(options: SmartsheetClientOptions): Transport {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const ownDispatcher = options.dispatcher === undefined;
  const dispatcher: Dispatcher =
    options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connect: { timeout: timeouts.connectMs } });
  const secrets = [options.accessToken];
  const fixedHeaders = buildFixedHeaders(options);
  const retry: RetryPolicy | undefined = options.retry;
  // Whether the base URL has answered once (any status): until then a base URL that cannot be reached is not retried.
  let answered = false;

  async function sendOnce<T>(call: ApiRequest, read: (body: unknown) => T): Promise<T> {
    const { operation, method, signal } = call;
    if (signal?.aborted) throw errorFromNetwork({ operation, method, secrets, error: signal.reason, sent: false, abortedByCaller: true });
    await options.beforeRequest?.({ operation, method, path: call.path, ...(call.json === undefined ? {} : { json: call.json }), cost: call.cost ?? 1, signal });

    const headers: Record<string, string> = { ...fixedHeaders };
    let body: string | Buffer | Readable | undefined;
    if (call.raw !== undefined) {
      const raw = call.raw();
      body = Buffer.isBuffer(raw.body) ? raw.body : Readable.from(raw.body, { objectMode: false });
      Object.assign(headers, raw.headers, { 'content-type': raw.contentType, 'content-length': String(raw.contentLength) });
    } else if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    }

    const started = performance.now();
    let status: number;
    let text: string;
    let retryAfterHeader: string | string[] | undefined;
    let dateHeader: string | string[] | undefined;
    try {
      const response = await request(`${baseUrl}${call.path}${buildQuery(call.query ?? {})}`, {
        method,
        headers,
        body: body ?? null,
        dispatcher,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
        ...(signal === undefined ? {} : { signal }),
      });
      status = response.statusCode;
      retryAfterHeader = response.headers['retry-after'];
      dateHeader = response.headers.date;
      text = await response.body.text();
    } catch (error) {
      throw errorFromNetwork({ operation, method, secrets, error, sent: true, abortedByCaller: signal?.aborted === true, baseUrl });
    }
    answered = true;
    const durationMs = performance.now() - started;
    const retryAfterMs = parseRetryAfter(retryAfterHeader);
    const serviceDateMs = typeof dateHeader === 'string' ? Date.parse(dateHeader) : Number.NaN;
    const date = Number.isFinite(serviceDateMs) ? { serviceDateMs } : {};

    if (status < 200 || status > 299) {
      const error = errorFromResponse({ operation, method, secrets, status, bodyText: text, retryAfterMs });
      notify({ operation, method, status, errorCode: error.errorCode, retryAfterMs, durationMs, ...date });
      throw error;
    }
    notify({ operation, method, status, durationMs, ...date });
    try {
      return read(text.trim() === '' ? undefined : parseJsonSafely(text));
    } catch (error) {
      throw errorFromUnreadableSuccess({ operation, method, secrets, status, reason: describeReadFailure(error), cause: error });
    }
  }

  function notify(info: Parameters<NonNullable<SmartsheetClientOptions['onResponse']>>[0]): void {
    try {
      options.onResponse?.(info);
    } catch {
      // A metrics hook must not turn a finished call into a failure.
    }
  }

  return {
    async send(call, read) {
      const firstStarted = performance.now();
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await sendOnce(call, read);
        } catch (error) {
          if (retry === undefined || !(error instanceof ApiError)) throw error;
          // A wrong base URL (or a network that does not lead to it) would otherwise be retried for retry.maxElapsedMs
          // before anyone hears of it; once the service has answered, the same failure is a passing fault.
          if (!answered && error.unreachable) throw error;
          const decision = decideRetry(error, attempt, performance.now() - firstStarted, retry);
          if (!decision.retry) throw error;
          try {
            await sleep(decision.delayMs, undefined, call.signal === undefined ? {} : { signal: call.signal });
          } catch (abort) {
            throw errorFromNetwork({ operation: call.operation, method: call.method, secrets, error: abort, sent: false, abortedByCaller: true });
          }
        }
      }
    },
    async close() {
      if (ownDispatcher) await dispatcher.close();
    },
  };
}

function buildFixedHeaders(options: SmartsheetClientOptions): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.accessToken}`,
    accept: 'application/json',
    'user-agent': options.userAgent ?? `seatflow/${SEATFLOW_VERSION} node/${process.version}`,
    // TYPE,OrgName,SourceName (docs/service.md#transport); a comma inside the org name would shift the fields.
    'smartsheet-integration-source': `SCRIPT,${(options.integrationOrg ?? '').replace(/,/g, ' ')},seatflow`,
  };
  if (options.changeAgent !== undefined && options.changeAgent !== '') {
    headers['smartsheet-change-agent'] = options.changeAgent.slice(-CHANGE_AGENT_MAX);
  }
  return headers;
}

function describeReadFailure(error: unknown): string {
  if (error instanceof z.ZodError) return `it does not match the wire: ${z.prettifyError(error)}`.slice(0, 1_000);
  if (error instanceof UnsafeIntegerError) return error.message;
  if (error instanceof SyntaxError) return `it is not JSON (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}
