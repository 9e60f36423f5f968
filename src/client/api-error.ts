import { SeatflowError } from '../core/seatflow-error.js';

/** The six error categories, mapped from HTTP as docs/service.md#errors says. */
export const ERROR_CATEGORIES = [
  'InvalidArgument',
  'InvalidRequest',
  'Authorization',
  'ResourceNotFound',
  'ServiceUnavailable',
  'Other',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

export interface ApiErrorDetails {
  /** The client operation, e.g. `users.deactivate`. */
  operation: string;
  /** The HTTP method of the call (absent when nothing was going to be sent); the retry policy reads it. */
  method?: string | undefined;
  message: string;
  status?: number | undefined;
  errorCode?: number | undefined;
  refId?: string | undefined;
  detail?: unknown;
  retryable?: boolean | undefined;
  retryAfterMs?: number | undefined;
  /**
   * True when the request may have reached the service and changed state although no success was seen
   * (a 5xx, a timeout or a reset after the request was sent). The job then re-reads before repeating it.
   */
  mayHaveApplied?: boolean | undefined;
  /** A connection that failed: the system's code for it (ECONNREFUSED, ENOTFOUND, UND_ERR_CONNECT_TIMEOUT…). */
  networkCode?: string | undefined;
  cause?: unknown;
}

/** Connection failures that say nothing listens at the base URL (or the URL names no host), rather than a blip. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

/** Whether a connection failure's code says the base URL cannot be reached at all (see ApiError.unreachable). */
export function isUnreachableCode(code: string | undefined): boolean {
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

/** A failed call. The access token never appears in one: messages are built from the response, not the request. */
export abstract class ApiError extends SeatflowError {
  abstract readonly category: ErrorCategory;
  readonly operation: string;
  readonly method: string | undefined;
  readonly status: number | undefined;
  readonly errorCode: number | undefined;
  readonly refId: string | undefined;
  readonly detail: unknown;
  readonly mayHaveApplied: boolean;
  readonly networkCode: string | undefined;

  constructor(code: string, details: ApiErrorDetails) {
    super(code, details.message, {
      retryable: details.retryable ?? false,
      ...(details.retryAfterMs === undefined ? {} : { retryAfterMs: details.retryAfterMs }),
      ...(details.cause === undefined ? {} : { cause: details.cause }),
    });
    this.operation = details.operation;
    this.method = details.method;
    this.status = details.status;
    this.errorCode = details.errorCode;
    this.refId = details.refId;
    this.detail = details.detail;
    this.mayHaveApplied = details.mayHaveApplied ?? false;
    this.networkCode = details.networkCode;
  }

  /**
   * The base URL could not be reached at all (refused, unknown host, no route, no connection within the connect
   * timeout): nothing was sent. Before the service has answered once, that is a wrong SMARTSHEET_API_BASE or a
   * network that does not lead there far more often than a passing fault.
   */
  get unreachable(): boolean {
    return isUnreachableCode(this.networkCode);
  }

  /** A plain record for logs, outcomes and reports. */
  toJSON(): Record<string, unknown> {
    return {
      category: this.category,
      operation: this.operation,
      method: this.method,
      status: this.status,
      errorCode: this.errorCode,
      refId: this.refId,
      message: this.message,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      mayHaveApplied: this.mayHaveApplied,
      ...(this.networkCode === undefined ? {} : { networkCode: this.networkCode }),
    };
  }
}

/** A required argument was null or empty; raised before anything is sent. */
export class InvalidArgumentError extends ApiError {
  readonly category = 'InvalidArgument';
  constructor(details: ApiErrorDetails) {
    super('INVALID_ARGUMENT', { ...details, retryable: false, mayHaveApplied: false });
  }
}

/** 400, 405, 406, 409, 410, 415 and every eligibility refusal. Never retried. */
export class InvalidRequestError extends ApiError {
  readonly category = 'InvalidRequest';
  constructor(details: ApiErrorDetails) {
    super('INVALID_REQUEST', { ...details, retryable: false, mayHaveApplied: false });
  }
}

/** 401 and 403: the token is missing, invalid, expired or not permitted. Stops a batch. */
export class AuthorizationError extends ApiError {
  readonly category = 'Authorization';
  constructor(details: ApiErrorDetails) {
    super('AUTHORIZATION', { ...details, retryable: false, mayHaveApplied: false });
  }
}

/** 404: the addressed resource (for user operations: the user) does not exist. */
export class ResourceNotFoundError extends ApiError {
  readonly category = 'ResourceNotFound';
  constructor(details: ApiErrorDetails) {
    super('RESOURCE_NOT_FOUND', { ...details, retryable: false, mayHaveApplied: false });
  }
}

/** 429, 5xx and network failures: worth trying again later. */
export class ServiceUnavailableError extends ApiError {
  readonly category = 'ServiceUnavailable';
  constructor(details: ApiErrorDetails) {
    super('SERVICE_UNAVAILABLE', { ...details, retryable: details.retryable ?? true });
  }

  /** True for 429 / errorCode 4003: the rate limit, not a fault. */
  get rateLimited(): boolean {
    return this.status === 429 || this.errorCode === 4003;
  }
}

/** Anything else, including a response that cannot be parsed. */
export class OtherApiError extends ApiError {
  readonly category = 'Other';
  constructor(details: ApiErrorDetails) {
    super('OTHER', { ...details, retryable: details.retryable ?? false });
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
