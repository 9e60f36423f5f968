import { ERROR_CODES } from '../../contract/index.js';

/**
 * Refusals the real service makes whose code it does not document (decisions.md #10a). The reference server answers
 * them with 403 and a code of its own from 9001–9099, never a documented code with another meaning; the README's
 * reference-server section lists them.
 */
export const SIM_REFUSAL_CODES = {
  /** The e-mail is not on one of the plan's validated domains. */
  notPlanDomain: 9001,
  /** Managed by an identity provider or directory integration. */
  externallyManaged: 9002,
  /** Deactivated longer ago than the reactivation window. */
  reactivationWindowPassed: 9003,
  /** Downgrade/upgrade refused: status, current seat or admin status. */
  seatChangeNotAllowed: 9004,
  /** GUEST is an upgrade target for external users only (isInternal: false). */
  guestOnlyForExternal: 9005,
} as const;

/** Codes the reference server uses beyond the contract's list. */
export const SERVER_ERROR_CODES = {
  ...ERROR_CODES,
  ...SIM_REFUSAL_CODES,
  transferTargetNotFound: 1019,
  cannotEditOthersDiscussion: 1081,
  duplicateTitle: 1056,
  badSystemColumnChange: 1089,
  alternateEmailNotConfirmed: 1158,
  alternateEmailOfOtherUser: 1159,
} as const;

/** An error answer of the API: thrown by handlers, written by the error handler as `{errorCode, message, refId}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly errorCode: number;
  readonly detail: unknown;

  constructor(status: number, errorCode: number, message: string, detail?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorCode = errorCode;
    this.detail = detail;
  }

  static notFound(what = 'Not Found'): ApiError {
    return new ApiError(404, ERROR_CODES.notFound, what);
  }

  static forbidden(message = 'You are not authorized to perform this action.'): ApiError {
    return new ApiError(403, ERROR_CODES.notAuthorized, message);
  }

  static badRequest(errorCode: number, message: string, detail?: unknown): ApiError {
    return new ApiError(400, errorCode, message, detail);
  }

  /** A refusal of this request (wire.md §3.1: the service answers most one-row refusals with 403). */
  static refused(errorCode: number, message: string): ApiError {
    return new ApiError(403, errorCode, message);
  }
}
