import { SeatflowError } from '../core/seatflow-error.js';

/** Stable `error.code`s of the control API, for machines; `message` and `hint` are for people. */
export const CONTROL_ERROR_CODES = {
  unauthorized: 'UNAUTHORIZED',
  /** Authenticated, but the operator's role does not allow it, or a governance rule refuses it (docs/governance.md). */
  forbidden: 'FORBIDDEN',
  approvalNotFound: 'APPROVAL_NOT_FOUND',
  forbiddenHost: 'FORBIDDEN_HOST',
  forbiddenOrigin: 'FORBIDDEN_ORIGIN',
  csrf: 'CSRF_TOKEN_INVALID',
  rateLimited: 'RATE_LIMITED',
  badRequest: 'BAD_REQUEST',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  bodyTooLarge: 'BODY_TOO_LARGE',
  manifestTooLarge: 'MANIFEST_TOO_LARGE',
  manifestRefused: 'MANIFEST_REFUSED',
  confirmationRequired: 'CONFIRMATION_REQUIRED',
  batchNotFound: 'BATCH_NOT_FOUND',
  conflict: 'CONFLICT',
  /** An approved plan went stale when it was planned again: nothing ran, it waits for approval of the new plan. */
  planStale: 'PLAN_STALE',
  notFound: 'NOT_FOUND',
  redisUnavailable: 'REDIS_UNAVAILABLE',
  /** No Redis replica took a submission in time: it is not acknowledged (it may still be kept), submitting again is safe. */
  redisNoReplica: 'REDIS_NO_REPLICA',
  /** A stored record lacks what its creation wrote (a failover dropped it): it cannot be used. */
  recordUnreadable: 'RECORD_UNREADABLE',
  targetNotConfigured: 'TARGET_NOT_CONFIGURED',
  targetError: 'TARGET_ERROR',
  internal: 'INTERNAL',
} as const;
export type ControlErrorCode = (typeof CONTROL_ERROR_CODES)[keyof typeof CONTROL_ERROR_CODES];

export interface ControlErrorOptions {
  hint?: string;
  /** Sent as Retry-After (seconds) and in the body. */
  retryAfterSeconds?: number;
  /** Extra fields of the error body (e.g. `problems` of a refused manifest). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** An answer other than success, as the HTTP status and the `{error: {code, message, hint?}}` body it becomes. */
export class ControlError extends SeatflowError {
  readonly statusCode: number;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(statusCode: number, code: ControlErrorCode, message: string, options: ControlErrorOptions = {}) {
    super(code, message, {
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.statusCode = statusCode;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): { error: Record<string, unknown> } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.hint === undefined ? {} : { hint: this.hint }),
        ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
        ...this.details,
      },
    };
  }
}

export function batchNotFound(batchId: string): ControlError {
  return new ControlError(404, CONTROL_ERROR_CODES.batchNotFound, `no batch ${batchId}`, { hint: 'List batches with GET /v1/batches.' });
}

export function offboardingNotFound(id: string): ControlError {
  return new ControlError(404, CONTROL_ERROR_CODES.notFound, `no offboarding ${id}`, { hint: 'Offboarding ids start with "o" (POST /v1/offboardings answers it).' });
}

export function redisUnavailable(why: string): ControlError {
  return new ControlError(503, CONTROL_ERROR_CODES.redisUnavailable, `Redis is not reachable: ${why}`, {
    hint: 'Check that Redis (REDIS_URL, or the private redis-server of `seatflow serve`) is running; nothing was queued or changed. Try again once GET /readyz answers 200.',
  });
}

/** 413 for a manifest or leavers file with more rows than the control API plans (control.maxPlanRows). */
export function manifestTooLarge(maxRows: number, what: 'manifest' | 'leavers file' = 'manifest'): ControlError {
  const limit = maxRows.toLocaleString('en-US');
  return new ControlError(413, CONTROL_ERROR_CODES.manifestTooLarge, `the ${what} has more than ${limit} rows, more than this server plans in one request (control.maxPlanRows)`, {
    hint: `Run it with the seatflow CLI (${what === 'manifest' ? '`seatflow submit FILE`' : '`seatflow offboard FILE`'}), which reads a file of any size as a stream; or split it into files of at most ${limit} rows; or raise control.maxPlanRows in the config file. Nothing was planned or queued.`,
    details: { maxRows },
  });
}
