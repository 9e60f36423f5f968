import { ALTERNATE_EMAIL_LIMIT, ERROR_CODES, type AlternateEmail, type User } from '../contract/index.js';
import { RULES, type PlannedRow, type ResolvedTarget } from './planned-row.js';

/** What the plan knows of an address about to become a user's alternate. */
export interface NewAlternateFacts {
  /** Users by primary e-mail (lower-case), as the pre-flight resolved them. */
  usersByEmail: ReadonlyMap<string, User>;
  /** userId → alternate addresses, for the users whose alternates were read. */
  alternates: ReadonlyMap<number, readonly AlternateEmail[]>;
}

/**
 * The service's rules for adding one alternate address (docs/service.md#alternate-e-mails), as far as what was read
 * tells them: already this user's alternate (no-op); someone's primary address (1157); an alternate of another user
 * whose alternates were read (1159; one outside them shows as the 1159 the service answers when the row runs); the
 * user at the per-user limit (1330). One judgement for a manifest's add-alternate-email rows and for the adds of a
 * domain migration.
 */
export function judgeNewAlternate(user: User, address: string, facts: NewAlternateFacts, target: ResolvedTarget): Pick<PlannedRow, 'verdict' | 'reason' | 'rule' | 'errorCode'> & { target: ResolvedTarget } {
  const wanted = address.toLowerCase();
  const own = facts.alternates.get(user.id) ?? [];
  const existing = own.find((alt) => alt.email.toLowerCase() === wanted);
  if (existing !== undefined) {
    const waiting = existing.confirmed === false ? ' (not confirmed yet)' : '';
    return { verdict: 'no-op', reason: `${address} is already an alternate address${waiting}`, target: { ...target, alternateEmailId: existing.id } };
  }
  const owner = facts.usersByEmail.get(wanted);
  if (owner !== undefined) {
    const whose = owner.id === user.id ? 'this user' : `user ${owner.id}`;
    return { verdict: 'conflict', rule: RULES.alreadyExists, errorCode: ERROR_CODES.alternateEmailConflict, reason: `${address} is the primary address of ${whose}`, target };
  }
  for (const [userId, alternates] of facts.alternates) {
    if (userId !== user.id && alternates.some((alt) => alt.email.toLowerCase() === wanted)) {
      return { verdict: 'conflict', rule: RULES.alreadyExists, errorCode: ERROR_CODES.alternateEmailOfOtherUser, reason: `${address} is an alternate address of user ${userId}`, target };
    }
  }
  if (own.length >= ALTERNATE_EMAIL_LIMIT) {
    return { verdict: 'refused', rule: RULES.alternateLimit, errorCode: ERROR_CODES.alternateEmailLimit, reason: `the user has ${own.length} alternate addresses, the most the service allows (${ALTERNATE_EMAIL_LIMIT})`, target };
  }
  return { verdict: 'change', target };
}
