import type { User } from '../contract/index.js';
import { PROFILE_FIELD_NAMES, userRefLabel, type Action, type ActionOf } from '../manifest/action.js';
import { findUser, type PreflightFacts } from './preflight-facts.js';
import { judgeNewAlternate } from './judge-new-alternate.js';
import { judgeRemoval } from './removal-preflight.js';
import { RULES, type Classification, type ResolvedTarget } from './planned-row.js';
import { seatReading } from './seat-reading.js';
import { isIspEmail } from '../contract/isp-domains.js';
import { ERROR_CODES, sameSeatType } from '../contract/index.js';
import { refuseBeforeRules, seatCostOfAdd, seatUnknownRefusal, type ServiceFacts } from './service-constraints.js';

type UserAction = Extract<Action, { user: unknown }>;

const DOWNGRADABLE = new Set(['MEMBER', 'PROVISIONAL_MEMBER', 'GUEST']);
/** Upgrade moves the service allows (developer guide: provisional→member, viewer→member|guest, guest→member). */
const UPGRADES: Record<string, readonly string[]> = { PROVISIONAL_MEMBER: ['MEMBER'], VIEWER: ['MEMBER', 'GUEST'], CONTRIBUTOR: ['MEMBER', 'GUEST'], GUEST: ['MEMBER'], MEMBER: [] };
/** Actions refused on the caller's own account: seatflow must not lock out the admin running it. */
const NOT_ON_SELF = new Set(['deactivate', 'reactivate', 'remove', 'downgrade', 'remove-from-plan', 'update']);
/**
 * The code the service answers when the row runs on the caller's own account (docs/service.md#error-codes), so that a row the plan
 * refuses carries the same errorCode it would get at run time. Actions without one are seatflow's own guard.
 */
const SELF_CODES: Partial<Record<string, number>> = {
  deactivate: ERROR_CODES.cannotDeactivateSelf,
  reactivate: ERROR_CODES.cannotReactivateSelf,
  remove: ERROR_CODES.cannotRemoveSelf,
};
/** "Not a member" by verb: a user who is not an active member cannot be deactivated (1335) nor reactivated (1354). */
const NOT_MEMBER_CODES = { deactivate: ERROR_CODES.notAMember, reactivate: ERROR_CODES.reactivateNotMember } as const;

/** What the plan needs to know about the service it plans for. */
export interface ClassifyOptions extends ServiceFacts {
  /** Whether the VIEWER seat is retired (a VIEWER/CONTRIBUTOR row is then sent as CONTRIBUTOR). Default true. */
  pastViewerSunset?: boolean;
}

/** Classifies a row that names a user, from facts already read. */
export function classifyUserRow(action: UserAction, facts: PreflightFacts, options: ClassifyOptions = {}): Classification {
  const user = findUser(facts, action.user);
  const named = userRefLabel(action.user, 'user ');
  if (action.action === 'add') {
    if (user !== undefined) return { verdict: 'no-op', reason: `${named} is already in the organization (${user.status ?? 'status hidden'})`, target: { userId: user.id, email: user.email } };
    return { verdict: 'change', reason: seatCostOfAdd(action), target: { email: action.user.email } };
  }
  if (user === undefined) return { verdict: 'not-found', reason: `${named} is not a user of the organization`, target: {} };
  const target: ResolvedTarget = { userId: user.id, email: user.email };
  if ('userId' in action.user && action.user.email !== undefined && action.user.email !== user.email.toLowerCase()) {
    return { verdict: 'conflict', rule: RULES.emailIdMismatch, reason: `user ${user.id} is ${user.email}, not ${action.user.email}`, target };
  }
  const email = user.email.toLowerCase();
  if (facts.protectedAccounts.has(email) || facts.protectedAccounts.has(String(user.id))) {
    return { verdict: 'refused', rule: RULES.protectedAccount, reason: `${email} is a protected account (guardrails.protectedAccounts)`, target };
  }
  if (user.id === facts.caller.id && NOT_ON_SELF.has(action.action)) {
    const errorCode = SELF_CODES[action.action];
    return { verdict: 'refused', rule: RULES.selfAccount, reason: `${email} is the account running seatflow`, target, ...(errorCode === undefined ? {} : { errorCode }) };
  }
  const refused = refuseBeforeRules(action, user, target, options);
  if (refused !== undefined) return refused;
  switch (action.action) {
    case 'deactivate':
    case 'reactivate':
      return lifecycle(action, user, target);
    case 'remove':
      return remove(action, user, facts, target);
    case 'update':
      return update(action, user, target);
    case 'downgrade':
    case 'upgrade':
    case 'remove-from-plan':
      return seat(action, user, facts, target, options.pastViewerSunset ?? true);
    case 'set-profile-image':
      // The file itself was checked when the manifest was read; its size is judged with it (plan-upload.ts).
      return { verdict: 'change', target: { ...target, profileImageId: user.profileImage?.imageId ?? '' } };
    default:
      return alternate(action, user, facts, target);
  }
}

function lifecycle(action: ActionOf<'deactivate' | 'reactivate'>, user: User, target: ResolvedTarget): Classification {
  const verb = action.action;
  const already = verb === 'deactivate' ? 'DEACTIVATED' : 'ACTIVE';
  if (user.status === already) return { verdict: 'no-op', reason: `already ${already.toLowerCase()}`, target };
  if (isIspEmail(user.email)) {
    return { verdict: 'refused', rule: RULES.ispDomain, errorCode: ERROR_CODES.ispDomain, reason: `${user.email} is on a consumer mail domain; the service cannot ${verb} it`, target };
  }
  const eligible = verb === 'deactivate' ? 'ACTIVE' : 'DEACTIVATED';
  if (user.status !== undefined && user.status !== eligible) {
    return { verdict: 'refused', rule: RULES.statusNotEligible, errorCode: NOT_MEMBER_CODES[verb], reason: `the user is ${user.status}; only ${eligible} users can be ${verb}d`, target };
  }
  if (verb === 'reactivate') {
    // The deactivation date is not on the wire: the window is checked by the service when the row runs.
    return { verdict: 'change', reason: 'allowed only within the reactivation window (checked when the row runs)', target };
  }
  // The seat the user holds now: a reactivation gives a Member seat, whatever it was (what a revert must say).
  return { verdict: 'change', target: user.seatType === undefined ? target : { ...target, seatBefore: { seatType: user.seatType } } };
}

/** The shared removal pre-flight (removal-preflight.ts), on the facts the pre-flight read. */
function remove(action: ActionOf<'remove'>, user: User, facts: PreflightFacts, target: ResolvedTarget): Classification {
  const heir = action.transferTo === undefined ? undefined : findUser(facts, action.transferTo);
  const verdict = judgeRemoval({
    user,
    groups: facts.groupsOwned.get(user.id) ?? { known: false, why: 'the pre-flight did not read them' },
    candidates: action.transferTo === undefined ? [] : [{ named: heir?.email.toLowerCase() ?? userRefLabel(action.transferTo, 'user '), from: 'row', user: heir }],
    transferSheets: action.transferSheets === true,
  });
  if (!verdict.ok) {
    return { verdict: 'refused', rule: verdict.rule, reason: verdict.reason, target: verdict.transferToUserId === undefined ? target : { ...target, transferToUserId: verdict.transferToUserId } };
  }
  const planned = verdict.transferTo === undefined ? target : { ...target, transferToUserId: verdict.transferTo.userId };
  return { verdict: 'change', ...(verdict.notes.length === 0 ? {} : { reason: verdict.notes.join('; ') }), target: planned };
}

function update(action: ActionOf<'update'>, user: User, target: ResolvedTarget): Classification {
  const changing = PROFILE_FIELD_NAMES.filter((field) => action[field] !== undefined && action[field] !== user[field]);
  if (changing.length === 0) return { verdict: 'no-op', reason: 'every field already has that value', target };
  // On a user-subscription plan licensedSheetCreator changes only for a System Admin (docs/service.md#update-user), and
  // the service refuses the whole call otherwise. Nothing read tells a plan's model: seatflow assumes the user model,
  // to which plans moved at their renewals from 2025.
  if (changing.includes('licensedSheetCreator') && user.admin !== true && action.admin !== true) {
    return {
      verdict: 'refused',
      rule: RULES.licensedSheetCreatorAdminOnly,
      reason: 'licensedSheetCreator can be changed only for a System Admin; change the seat with upgrade or downgrade instead',
      target,
    };
  }
  return { verdict: 'change', reason: `sets ${changing.map((field) => `${field} ${shownValue(user[field])} → ${shownValue(action[field])}`).join(', ')}`, target };
}

/** A profile value in a plan's words: quoted text (cut at 60 characters), a flag or a number as it is, or (none). */
function shownValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(none)';
  if (typeof value !== 'string') return String(value);
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
}

function seat(action: ActionOf<'downgrade' | 'upgrade' | 'remove-from-plan'>, user: User, facts: PreflightFacts, target: ResolvedTarget, pastViewerSunset: boolean): Classification {
  const plans = [...facts.seats.entries()].filter(([, users]) => users.has(user.id)).map(([planId]) => planId);
  let planId = action.planId;
  if (planId === undefined) {
    if (plans.length > 1) {
      return { verdict: 'refused', rule: RULES.planAmbiguous, reason: `the user is in plans ${plans.join(', ')}; name one with planId`, target };
    }
    planId = plans[0];
    if (planId === undefined) {
      return action.action === 'remove-from-plan'
        ? { verdict: 'no-op', reason: 'the user is in no plan', target }
        : { verdict: 'not-found', reason: 'the user holds no seat in any plan', target };
    }
  }
  const seated = facts.seats.get(planId)?.get(user.id);
  const planned = { ...target, planId };
  if (seated === undefined) {
    return action.action === 'remove-from-plan'
      ? { verdict: 'no-op', reason: `not in plan ${planId}`, target: planned }
      : { verdict: 'not-found', reason: `the user holds no seat in plan ${planId}`, target: planned };
  }
  const current = seated.seatType;
  const unknownSeat = action.action === 'remove-from-plan' ? undefined : seatUnknownRefusal(seated, planned);
  if (unknownSeat !== undefined) return unknownSeat;
  if (action.action === 'remove-from-plan') return { verdict: 'change', reason: `removes the ${current ?? ''} seat`.trim(), target: planned };
  if (sameSeatType(current, action.seatType)) return { verdict: 'no-op', reason: `already ${action.seatType}`, target: planned };
  if (action.action === 'upgrade') {
    if (current !== undefined && !(UPGRADES[current] ?? []).includes(action.seatType)) {
      return { verdict: 'refused', rule: RULES.seatNotEligible, reason: `a ${current} seat cannot be upgraded to ${action.seatType}`, target: planned };
    }
    // The service makes GUEST an upgrade target for external users only (isInternal: false).
    if (action.seatType === 'GUEST' && seated.isInternal !== false) {
      return { verdict: 'refused', rule: RULES.guestForInternalUser, reason: `GUEST is an upgrade only for users outside the plan's domains (isInternal: false); ${internalWhy(seated)}`, target: planned };
    }
    return { verdict: 'change', reason: `${current ?? '?'} → ${action.seatType}`, target: seatTarget(planned, current, user, facts.readAt, false) };
  }
  if (user.status !== undefined && user.status !== 'ACTIVE') {
    return { verdict: 'refused', rule: RULES.statusNotEligible, reason: `the user is ${user.status}; only ACTIVE users can be downgraded`, target: planned };
  }
  // GUEST is a seat for external users only (docs/service.md#downgrade-and-upgrade); the service refuses it otherwise.
  if (action.seatType === 'GUEST' && seated.isInternal !== false) {
    return { verdict: 'refused', rule: RULES.guestForInternalUser, reason: `GUEST is a downgrade only for users outside the plan's domains (isInternal: false); ${internalWhy(seated)}`, target: planned };
  }
  if (current !== undefined && !DOWNGRADABLE.has(current)) {
    return { verdict: 'refused', rule: RULES.seatNotEligible, reason: `a ${current} seat cannot be downgraded (only MEMBER, PROVISIONAL_MEMBER, GUEST)`, target: planned };
  }
  if (user.admin === true && action.removeAdminStatus !== true) {
    return { verdict: 'refused', rule: RULES.adminWithoutRemoveAdminStatus, reason: 'the user is an admin: add removeAdminStatus=true to downgrade', target: planned };
  }
  return { verdict: 'change', reason: `${current ?? '?'} → ${sentSeat(action.seatType, pastViewerSunset)}${user.admin === true ? ', removes admin' : ''}`, target: seatTarget(planned, current, user, facts.readAt, action.removeAdminStatus === true) };
}

/**
 * A seat row's target: what it takes away, and, when the reading's time is known, that reading as the row's state
 * before (the shape the seat jobs read: plan, seat, admin flag when the row clears it) while it stands.
 */
function seatTarget(planned: ResolvedTarget & { planId: number }, current: string | undefined, user: User, readAt: string | undefined, clearsAdmin: boolean): ResolvedTarget {
  const seatBefore = seatBeforeOf(current, user);
  if (readAt === undefined) return { ...planned, seatBefore };
  const state = seatReading(planned.planId, current, { value: user.admin, clearedByRow: clearsAdmin });
  return { ...planned, seatBefore, readAtPlan: { readAt, state } };
}

/** What a seat change takes away, as read now: its revert gives it back (docs/governance.md#revert). */
function seatBeforeOf(current: string | undefined, user: User): NonNullable<ResolvedTarget['seatBefore']> {
  return { ...(current === undefined ? {} : { seatType: current }), ...(user.admin === undefined ? {} : { admin: user.admin }) };
}

/** Why a GUEST row is refused: the user is internal, or the service did not say (an unknown is not taken as external). */
function internalWhy(seated: Pick<User, 'isInternal'>): string {
  return seated.isInternal === true ? 'this user is internal' : 'the service did not say whether this user is internal (isInternal missing)';
}

/** The downgrade target as it will be sent, saying so when VIEWER/CONTRIBUTOR goes out under the other name. */
function sentSeat(seatType: string, pastViewerSunset: boolean): string {
  if (seatType !== 'CONTRIBUTOR' && seatType !== 'VIEWER') return seatType;
  return pastViewerSunset ? 'CONTRIBUTOR (VIEWER is retired: sent as CONTRIBUTOR)' : 'VIEWER (sent as VIEWER until the service retires it)';
}

function alternate(action: ActionOf<'add-alternate-email' | 'delete-alternate-email' | 'make-alternate-email-primary'>, user: User, facts: PreflightFacts, target: ResolvedTarget): Classification {
  const address = action.alternateEmail;
  const existing = (facts.alternates.get(user.id) ?? []).find((alt) => alt.email.toLowerCase() === address);
  const withId = existing === undefined ? target : { ...target, alternateEmailId: existing.id };
  if (action.action === 'add-alternate-email') return judgeNewAlternate(user, address, facts, target);
  if (action.action === 'delete-alternate-email') {
    // Refused, not no-op: a typo in the address would otherwise read as done.
    if (existing === undefined) return { verdict: 'refused', rule: RULES.alternateNotFound, reason: `${address} is not an alternate e-mail of this user`, target };
    return { verdict: 'change', target: withId };
  }
  if (user.email.toLowerCase() === address) return { verdict: 'no-op', reason: `${address} is already the primary address`, target };
  if (existing === undefined) return { verdict: 'not-found', reason: `${address} is not an alternate address of the user`, target };
  if (existing.confirmed === false) {
    return { verdict: 'change', reason: 'not confirmed yet: the service refuses unless its domain is validated', target: withId };
  }
  return { verdict: 'change', target: withId };
}
