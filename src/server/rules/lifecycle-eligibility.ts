import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { userPlanDomains, type ServerState } from '../state/server-state.js';
import type { UserRecord } from '../state/records.js';
import { isIspEmail } from '../../contract/isp-domains.js';
import { domainMatches } from '../../contract/index.js';

type Verb = 'deactivate' | 'reactivate';

/** The documented codes differ by verb (docs/service.md#error-codes): 1335/1336 for deactivate, 1354/1355 for reactivate. */
const VERB_CODES: Record<Verb, { notMember: number; self: number }> = {
  deactivate: { notMember: CODES.notAMember, self: CODES.cannotDeactivateSelf },
  reactivate: { notMember: CODES.reactivateNotMember, self: CODES.cannotReactivateSelf },
};

/**
 * Who may be deactivated or reactivated (docs/service.md#deactivate-and-reactivate). Each check throws the 403 the
 * real service answers (documented codes where they exist, the server's own 9001–9099 elsewhere,
 * docs/service.md#refusal-codes); a caller that passes every check may change the user.
 */
function commonChecks(state: ServerState, user: UserRecord, callerId: number, verb: Verb): void {
  const codes = VERB_CODES[verb];
  if (!user.inOrg || user.seats.length === 0) {
    throw ApiError.refused(codes.notMember, `User ${user.id} is not a member of the organization.`);
  }
  if (user.id === callerId) throw ApiError.refused(codes.self, `You cannot ${verb} yourself.`);
  if (isIspEmail(user.email)) {
    throw ApiError.refused(CODES.ispDomain, `Cannot ${verb} a user whose e-mail belongs to an ISP domain.`);
  }
  if (!domainMatches(user.email, userPlanDomains(state, user))) {
    throw ApiError.refused(CODES.notPlanDomain, `Cannot ${verb}: the user's e-mail is not on a domain of the plan.`);
  }
  refuseExternallyManaged(user, verb);
}

/**
 * A user managed by an identity provider or directory integration can be deactivated, reactivated or removed only
 * through that source (docs/service.md#externally-managed-users): 403 with the server's own 9002, naming the source.
 */
export function refuseExternallyManaged(user: UserRecord, verb: string): void {
  if (!user.externallyManaged) return;
  const source = user.externalSource === null ? 'an external source (identity provider or directory integration)' : `an external source (${user.externalSource})`;
  throw ApiError.refused(CODES.externallyManaged, `Cannot ${verb}: the user is managed by ${source}; do it there.`);
}

/** Returns false when the user is already deactivated (a no-op answered 200). */
export function checkDeactivate(state: ServerState, user: UserRecord, callerId: number): boolean {
  commonChecks(state, user, callerId, 'deactivate');
  if (user.status === 'DEACTIVATED') return false;
  if (user.status !== 'ACTIVE') {
    throw ApiError.refused(CODES.notAMember, `User ${user.id} is ${user.status} and cannot be deactivated.`);
  }
  return true;
}

/** Returns false when the user is already active (a no-op answered 200). */
export function checkReactivate(
  state: ServerState,
  user: UserRecord,
  callerId: number,
  now: number,
  windowMs: number,
): boolean {
  commonChecks(state, user, callerId, 'reactivate');
  if (user.status === 'ACTIVE') return false;
  if (user.status !== 'DEACTIVATED') {
    throw ApiError.refused(CODES.reactivateNotMember, `User ${user.id} is ${user.status}, not deactivated.`);
  }
  if (user.deactivatedAt !== null && now - user.deactivatedAt > windowMs) {
    const days = Math.round(windowMs / 86_400_000);
    throw ApiError.refused(
      CODES.reactivationWindowPassed,
      `User ${user.id} was deactivated more than ${days} days ago and can no longer be reactivated.`,
    );
  }
  return true;
}
