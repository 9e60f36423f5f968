import { describeUnrecognized, timestampMs, type User } from '../contract/index.js';
import type { LoadedPolicy } from './load-policy.js';
import { seatInColumn } from './load-policy.js';
import type { PolicyCondition, PolicyRule, PolicySeat, TargetSeat } from './policy.js';

const DAY = 86_400_000;

/** What the policy decided for one user of the plan. */
export interface SeatDecision {
  userId: number;
  email: string;
  seatBefore: PolicySeat | undefined;
  /** Why the user is left out (admin, protected account, e-mail or domain list, the account running seatflow). */
  excluded?: string;
  /** The rule that matched, by name (`rules[i]` when it has none); absent when none matched. */
  rule?: string;
  /** The seat the rule asks for; absent when the rule keeps the user, or none matched. */
  seatAfter?: TargetSeat;
  /** The row this decision needs; absent when the user already holds the seat (or nothing applies). */
  action?: 'downgrade' | 'upgrade';
}

export interface EvaluateOptions {
  /** When the run happens: ages (last login, invitation) are measured from here. */
  now: Date;
  /** guardrails.protectedAccounts (e-mails or ids). */
  protectedAccounts: readonly string[];
  /** The account running seatflow: never a row of its own policy. */
  callerId?: number;
}

/** Seat rank for telling an upgrade from a downgrade (GUEST sits between CONTRIBUTOR and MEMBER). */
const RANK: Record<PolicySeat, number> = { CONTRIBUTOR: 0, GUEST: 1, PROVISIONAL_MEMBER: 2, MEMBER: 3 };

/**
 * The current seat as a policy names it: VIEWER is CONTRIBUTOR's old name, and a deactivated user holds no paid seat
 * (docs/service.md#seats-follow-the-lifecycle): the free seat, whatever a listing says.
 */
export function policySeatOf(user: Pick<User, 'seatType' | 'status' | 'isInternal'>): PolicySeat | undefined {
  if (user.status === 'DEACTIVATED') return user.isInternal === false ? 'GUEST' : 'CONTRIBUTOR';
  return user.seatType === 'VIEWER' ? 'CONTRIBUTOR' : user.seatType;
}

/** Applies the policy to every user of the plan: exclusions first, then the first rule that matches. Pure. */
export function evaluatePolicy(users: readonly User[], loaded: LoadedPolicy, options: EvaluateOptions): SeatDecision[] {
  const protectedAccounts = new Set(options.protectedAccounts.map((entry) => entry.trim().toLowerCase()));
  return users.map((user) => decide(user, loaded, options, protectedAccounts));
}

function decide(user: User, loaded: LoadedPolicy, options: EvaluateOptions, protectedAccounts: ReadonlySet<string>): SeatDecision {
  const email = user.email.toLowerCase();
  const base: SeatDecision = { userId: user.id, email, seatBefore: policySeatOf(user) };
  const excluded = exclusionOf(user, email, loaded, options, protectedAccounts);
  if (excluded !== undefined) return { ...base, excluded };
  for (const [index, rule] of loaded.policy.rules.entries()) {
    if (!matches(rule.when, user, email, loaded, options.now)) continue;
    const name = rule.name ?? `rules[${index}]`;
    const seatAfter = targetOf(rule, email, loaded);
    // A source-of-truth line with an empty seat cell says nothing: the next rule may still decide.
    if (seatAfter === 'no-seat-in-file') continue;
    if (seatAfter === undefined) return { ...base, rule: name };
    return { ...base, rule: name, seatAfter, ...actionOf(base.seatBefore, seatAfter) };
  }
  return base;
}

function exclusionOf(user: User, email: string, loaded: LoadedPolicy, options: EvaluateOptions, protectedAccounts: ReadonlySet<string>): string | undefined {
  const { exclude } = loaded.policy;
  if (user.id === options.callerId) return 'the account running seatflow';
  if (protectedAccounts.has(email) || protectedAccounts.has(String(user.id))) return 'protected account (guardrails.protectedAccounts)';
  if (exclude.admins && user.admin === true) return 'System Admin (exclude.admins)';
  if (exclude.emails.includes(email)) return 'listed in exclude.emails';
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const hit = exclude.domains.find((entry) => domain === entry || domain.endsWith(`.${entry}`));
  if (hit !== undefined) return `domain ${hit} (exclude.domains)`;
  // Neither a downgrade (the service wants an Active user) nor an upgrade (a paid seat for someone locked out) fits.
  if (user.status === 'DEACTIVATED') return 'deactivated: holds no paid seat (a reactivation would assign a Member seat)';
  const unknown = (user.unrecognized ?? []).filter((item) => item.field === 'seatType' || item.field === 'status');
  if (unknown.length > 0) return `the service reports ${describeUnrecognized(unknown)}, which seatflow does not know`;
  return undefined;
}

function matches(when: PolicyCondition, user: User, email: string, loaded: LoadedPolicy, now: Date): boolean {
  const seat = policySeatOf(user);
  if (when.seat !== undefined && (seat === undefined || !(Array.isArray(when.seat) ? when.seat : [when.seat]).includes(seat))) return false;
  if (!statusMatches(when.status, user.status)) return false;
  const lastLogin = timestampMs(user.lastLogin);
  if (when.neverLoggedIn !== undefined && when.neverLoggedIn !== (lastLogin === undefined)) return false;
  if (when.lastLoginOlderThanDays !== undefined && (lastLogin === undefined || now.getTime() - lastLogin <= when.lastLoginOlderThanDays * DAY)) return false;
  if (when.invitedMoreThanDays !== undefined) {
    const since = timestampMs(user.seatTypeLastChangedAt);
    if (since === undefined || now.getTime() - since <= when.invitedMoreThanDays * DAY) return false;
  }
  if (when.inFile !== undefined && loaded.files.get(when.inFile)?.has(email) !== true) return false;
  if (when.notInFile !== undefined && loaded.files.get(when.notInFile)?.has(email) !== false) return false;
  return true;
}

/** A rule without `status` is about ACTIVE users only; a user whose status the service did not say matches none. */
function statusMatches(wanted: PolicyCondition['status'], status: User['status']): boolean {
  if (wanted === 'ANY') return true;
  if (status === undefined) return false;
  return (Array.isArray(wanted) ? wanted : [wanted ?? 'ACTIVE']).includes(status);
}

/** Dates come as ISO text, or epoch milliseconds with numericDates. */
function targetOf(rule: PolicyRule, email: string, loaded: LoadedPolicy): TargetSeat | undefined | 'no-seat-in-file' {
  if ('keep' in rule.then) return undefined;
  if ('seat' in rule.then) return rule.then.seat;
  const row = rule.when.inFile === undefined ? undefined : loaded.files.get(rule.when.inFile)?.get(email);
  return (row === undefined ? undefined : seatInColumn(row, rule.then.seatFromColumn)) ?? 'no-seat-in-file';
}

function actionOf(before: PolicySeat | undefined, after: TargetSeat): Pick<SeatDecision, 'action'> {
  const action = before === undefined ? undefined : seatMoveOf(before, after);
  return action === undefined ? {} : { action };
}

/** Whether going from one seat to another is an upgrade or a downgrade (undefined: the same seat). */
export function seatMoveOf(before: PolicySeat, after: PolicySeat): 'upgrade' | 'downgrade' | undefined {
  if (before === after) return undefined;
  return RANK[after] > RANK[before] ? 'upgrade' : 'downgrade';
}
