import { ALTERNATE_EMAIL_LIMIT, domainMatches, ERROR_CODES } from '../../contract/index.js';
import { ApiError } from '../http/api-error.js';
import type { AlternateEmailRecord, UserRecord } from '../state/records.js';
import { findUserByEmail, normalizeEmail, userPlanDomains, type ServerState } from '../state/server-state.js';
import { EMAIL_ADDRESS } from './email-domains.js';

/** Who holds an address now, and as what. */
export interface AddressHolder {
  user: UserRecord;
  as: 'primary' | 'alternate';
}

/** The user whose primary or alternate address this is (any user the server knows, in the organization or not). */
export function holderOf(state: ServerState, email: string): AddressHolder | undefined {
  const primary = findUserByEmail(state, email);
  if (primary !== undefined) return { user: primary, as: 'primary' };
  const key = normalizeEmail(email);
  for (const user of state.users.values()) {
    if (user.alternateEmails.some((alternate) => normalizeEmail(alternate.email) === key)) return { user, as: 'alternate' };
  }
  return undefined;
}

/**
 * Add alternate e-mails (docs/service.md#alternate-e-mails): each address well formed (1156); not anyone's primary
 * address, this user's included, nor twice in the request (1157); not an alternate of another user (1159), nor of this
 * one (1157: it is already associated); and no more alternates per user than the service allows (1330). Everything is
 * checked before anything is added.
 */
export function checkNewAlternates(state: ServerState, user: UserRecord, emails: readonly string[]): void {
  const seen = new Set<string>();
  for (const email of emails) {
    if (!EMAIL_ADDRESS.test(email)) throw ApiError.badRequest(ERROR_CODES.invalidEmail, `Invalid email address: ${email}`);
    const key = normalizeEmail(email);
    const holder = holderOf(state, email);
    if (seen.has(key) || (holder !== undefined && (holder.as === 'primary' || holder.user === user))) {
      throw ApiError.badRequest(ERROR_CODES.alternateEmailConflict, `The address ${email} is already associated with a Smartsheet account.`, { alternateEmailAddress: email });
    }
    if (holder !== undefined) {
      throw ApiError.badRequest(ERROR_CODES.alternateEmailOfOtherUser, `The address ${email} is an alternate address of another user.`, { alternateEmailAddress: email });
    }
    seen.add(key);
  }
  if (user.alternateEmails.length + emails.length > ALTERNATE_EMAIL_LIMIT) {
    throw ApiError.badRequest(ERROR_CODES.alternateEmailLimit, `A user can have at most ${ALTERNATE_EMAIL_LIMIT} alternate addresses; ${user.email} has ${user.alternateEmails.length}.`);
  }
}

/** An address on a validated domain of the user's plans counts as confirmed; any other waits for its owner's click. */
export function isConfirmed(state: ServerState, user: UserRecord, alternate: AlternateEmailRecord): boolean {
  return alternate.confirmed || domainMatches(alternate.email, userPlanDomains(state, user));
}

/**
 * Make primary (docs/service.md#alternate-e-mails): only when the domain of the user's primary address is validated
 * for the plan (403/1186) and the alternate is confirmed or on a validated domain (400/1158: its owner has not clicked
 * the confirmation link yet).
 */
export function checkMakePrimary(state: ServerState, user: UserRecord, alternate: AlternateEmailRecord): void {
  if (!domainMatches(user.email, userPlanDomains(state, user))) {
    throw ApiError.refused(ERROR_CODES.primaryDomainNotValidated, `The domain of the primary address ${user.email} is not validated for the plan.`);
  }
  if (!isConfirmed(state, user, alternate)) {
    throw ApiError.badRequest(ERROR_CODES.alternateEmailNotConfirmed, `The alternate address ${alternate.email} is not confirmed yet.`);
  }
}

/** Validating a domain (`/_sim`) confirms the addresses on it of the plan's users, as the service counts them. */
export function confirmAddressesOnDomain(state: ServerState, planId: number, domain: string): AlternateEmailRecord[] {
  const confirmed: AlternateEmailRecord[] = [];
  for (const user of state.users.values()) {
    if (!user.seats.some((seat) => seat.planId === planId)) continue;
    for (const alternate of user.alternateEmails) {
      if (!alternate.confirmed && domainMatches(alternate.email, [domain])) {
        alternate.confirmed = true;
        confirmed.push(alternate);
      }
    }
  }
  return confirmed;
}
