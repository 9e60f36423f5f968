import { ERROR_CODES } from '../../contract/index.js';

/**
 * Codes the reference server uses beyond the contract's list. The real service's eligibility codes are only partly
 * documented (wire.md §3.1: 1335/1336/1354/1355/1359); these fill the gaps and are listed in the README.
 */
export const SERVER_ERROR_CODES = {
  ...ERROR_CODES,
  /** The e-mail is not on one of the plan's validated domains. */
  notPlanDomain: 1354,
  /** Managed by an identity provider or directory integration. */
  externallyManaged: 1355,
  /** Deactivated longer ago than the reactivation window. */
  reactivationWindowPassed: 1356,
  /** Downgrade/upgrade refused: status, current seat or admin status. */
  seatChangeNotAllowed: 1357,
  transferTargetNotFound: 1019,
  cannotRemoveSelf: 1047,
  cannotEditOthersDiscussion: 1081,
  duplicateTitle: 1056,
  badSystemColumnChange: 1089,
  alternateEmailNotConfirmed: 1158,
  alternateEmailOfOtherUser: 1159,
  userAlreadyMember: 1016,
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
}
