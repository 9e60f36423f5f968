import { ERROR_CODES, errorBodySchema } from '../contract/index.js';
import { redactSecrets } from '../core/redact.js';
import {
  AuthorizationError,
  InvalidArgumentError,
  InvalidRequestError,
  isUnreachableCode,
  OtherApiError,
  ResourceNotFoundError,
  ServiceUnavailableError,
  type ApiError,
  type ApiErrorDetails,
} from './api-error.js';

/** What the factory needs to know about the call that failed. `secrets` are redacted from every message. */
export interface FailedCall {
  operation: string;
  method: string;
  secrets: readonly string[];
}

export interface HttpFailure extends FailedCall {
  status: number;
  /** The raw body text; JSON `{errorCode, message, refId, detail?}` when the service wrote it. */
  bodyText: string;
  /** Already parsed from the Retry-After header. */
  retryAfterMs?: number | undefined;
}

export interface NetworkFailure extends FailedCall {
  error: unknown;
  /** Whether the request had been handed to the connection (false: it failed before sending, e.g. aborted early). */
  sent: boolean;
  /** The caller's signal had fired: not a service fault. */
  abortedByCaller?: boolean;
  /** The base URL called, named in the message of a connection that could not be opened. */
  baseUrl?: string;
}

/** docs/service.md#errors: which statuses are which category. */
const INVALID_REQUEST_STATUSES = new Set([400, 405, 406, 409, 410, 415]);
const SERVICE_UNAVAILABLE_STATUSES = new Set([429, 500, 502, 503, 504]);
/** errorCodes on a 500 that say "try again" (docs/service.md#retries: the codes every SDK retries). */
const TRANSIENT_CODES = new Set<number>([ERROR_CODES.unexpected, ERROR_CODES.maintenance, ERROR_CODES.serverTimeout, ERROR_CODES.rateLimited, ERROR_CODES.unexpectedRetry]);
/** Failures that happen before a byte of the request leaves: the call cannot have changed anything. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

const MAX_SNIPPET = 200;

/** An argument was null, empty or malformed: raised before anything is sent. */
export function invalidArgument(operation: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ operation, message: `${operation}: ${message}` });
}

/**
 * The one mapping from an HTTP error answer to an error class. `mayHaveApplied` is true only for writes answered by
 * a 5xx that may have come after the work was done: not 429 (refused up front by the rate limiter), not 503 with
 * errorCode 4001 (maintenance, refused up front), not 501. A GET never changes state, so it is never ambiguous.
 */
export function errorFromResponse(failure: HttpFailure): ApiError {
  const { status, method } = failure;
  const body = readErrorBody(failure.bodyText);
  const errorCode = body?.errorCode;
  const serviceMessage = body?.message ?? describeOpaqueBody(status, failure.bodyText);
  const details: ApiErrorDetails = {
    operation: failure.operation,
    method,
    status,
    errorCode,
    refId: body?.refId,
    detail: body?.detail,
    message: redactSecrets(
      `${failure.operation}: ${serviceMessage} (HTTP ${status}${errorCode === undefined ? '' : `, errorCode ${errorCode}`}${body?.refId ? `, refId ${body.refId}` : ''})`,
      failure.secrets,
    ),
  };
  if (INVALID_REQUEST_STATUSES.has(status)) return new InvalidRequestError(details);
  if (status === 401) return new AuthorizationError(details);
  if (status === 403) return isRefusalOfThisRequest(errorCode) ? new InvalidRequestError(details) : new AuthorizationError(details);
  if (status === 404) return new ResourceNotFoundError(details);
  if (SERVICE_UNAVAILABLE_STATUSES.has(status)) {
    const refusedUpFront = status === 429 || (status === 503 && errorCode === ERROR_CODES.maintenance);
    return new ServiceUnavailableError({
      ...details,
      // A 500 with a permanent code (e.g. 1119) will fail the same way again.
      retryable: status !== 500 || errorCode === undefined || TRANSIENT_CODES.has(errorCode),
      retryAfterMs: failure.retryAfterMs,
      mayHaveApplied: isWrite(method) && !refusedUpFront,
    });
  }
  return new OtherApiError({ ...details, mayHaveApplied: isWrite(method) && status >= 500 && status !== 501 });
}

/** A connection that failed: refused/DNS before sending, or reset/timed out after. */
export function errorFromNetwork(failure: NetworkFailure): ApiError {
  const code = networkCode(failure.error);
  const reason = failure.error instanceof Error ? failure.error.message : String(failure.error);
  const sentAndAmbiguous = failure.sent && !(code !== undefined && NOT_SENT_CODES.has(code));
  const base: ApiErrorDetails = {
    operation: failure.operation,
    method: failure.method,
    cause: failure.error,
    mayHaveApplied: isWrite(failure.method) && sentAndAmbiguous,
    networkCode: code,
    message: '',
  };
  if (failure.abortedByCaller) {
    return new OtherApiError({ ...base, retryable: false, message: redactSecrets(`${failure.operation}: aborted by the caller`, failure.secrets) });
  }
  const what = isUnreachableCode(code) && failure.baseUrl !== undefined ? `cannot reach ${failure.baseUrl} (${code})` : `network failure${code === undefined ? '' : ` ${code}`}`;
  return new ServiceUnavailableError({ ...base, retryable: true, message: redactSecrets(`${failure.operation}: ${what}: ${reason}`, failure.secrets) });
}

/** A 2xx whose body does not match the wire: the call succeeded, so a write did apply. */
export function errorFromUnreadableSuccess(call: FailedCall & { status: number; reason: string; cause?: unknown }): OtherApiError {
  return new OtherApiError({
    operation: call.operation,
    method: call.method,
    status: call.status,
    cause: call.cause,
    mayHaveApplied: isWrite(call.method),
    message: redactSecrets(`${call.operation}: the response could not be read: ${call.reason}`, call.secrets),
  });
}

/**
 * docs/service.md#errors: the service answers most one-row refusals with 403 and a specific code (1359 consumer domain,
 * 1336 yourself, 1016 already a member, …): a refusal of this request, not of the token. Only 1004 ("not
 * authorized") is about the caller. A 403 without a readable errorCode (a proxy's page, say) says nothing either
 * way and stays Authorization, the cautious side: the queue re-reads its token before stopping anything.
 */
function isRefusalOfThisRequest(errorCode: number | undefined): boolean {
  return errorCode !== undefined && errorCode !== ERROR_CODES.notAuthorized;
}

export function isWrite(method: string): boolean {
  return method.toUpperCase() !== 'GET';
}

function readErrorBody(text: string) {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text) as unknown);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function describeOpaqueBody(status: number, text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return `HTTP ${status} with an empty body`;
  const snippet = trimmed.length > MAX_SNIPPET ? `${trimmed.slice(0, MAX_SNIPPET)}…` : trimmed;
  return `HTTP ${status} with a body that is not an API error: ${snippet}`;
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  // undici wraps socket errors; Node reports multi-address connects as an AggregateError.
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = (current as { errors?: unknown[] }).errors?.[0];
    current = inner ?? current.cause;
  }
  return undefined;
}
