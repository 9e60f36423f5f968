import { ERROR_CODES } from '../../contract/index.js';

/**
 * Refusals the real service makes whose code it does not document (docs/service.md#refusal-codes). The reference
 * server answers them with 403 and a code of its own from 9001–9099, never a documented code with another meaning;
 * docs/reference-server.md#refusal-codes lists them.
 */
export const SIM_REFUSAL_CODES = {
  /** The e-mail is not on one of the plan's validated domains. */
  notPlanDomain: 9001,
  /** Managed by an identity provider or directory integration: deactivate, reactivate and remove are refused. */
  externallyManaged: 9002,
  /** Deactivated longer ago than the reactivation window. */
  reactivationWindowPassed: 9003,
  /** Downgrade/upgrade refused: status, current seat or admin status. */
  seatChangeNotAllowed: 9004,
  /** GUEST is a seat for external users only (isInternal: false), as an upgrade and as a downgrade. */
  guestOnlyForExternal: 9005,
  /** On a user-subscription plan licensedSheetCreator can be changed only for a System Admin. */
  licensedSheetCreatorAdminOnly: 9006,
  /** Smartsheet Gov: deactivate and reactivate are unavailable. */
  unavailableOnGov: 9007,
} as const;

/** Codes the reference server uses beyond the contract's list. */
export const SERVER_ERROR_CODES = {
  ...ERROR_CODES,
  ...SIM_REFUSAL_CODES,
  transferTargetNotFound: 1019,
  cannotEditOthersDiscussion: 1081,
  duplicateTitle: 1056,
  badSystemColumnChange: 1089,
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

  /** A refusal of this request (docs/service.md#errors: the service answers most one-row refusals with 403). */
  static refused(errorCode: number, message: string): ApiError {
    return new ApiError(403, errorCode, message);
  }
}
