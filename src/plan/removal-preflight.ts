import { ownsSheetsBySeat, type User, type UserProfile } from '../contract/index.js';
import type { GroupOwnership } from './group-ownership.js';
import { RULES, type Rule } from './planned-row.js';

/**
 * The one pre-flight of removing a user, shared by `plan`/`run` (remove rows), `offboard` (its plan) and the
 * offboarding's re-check before the removal: who may take over the user's sheets and groups, and what happens when
 * nobody does. Pure: callers read the facts (users, group ownership, who is leaving) and this judges them, so the same
 * user and target get the same verdict on every path. docs/offboarding.md, "The removal pre-flight".
 */

/** A user who could take over, as one path named them. */
export interface TransferCandidate {
  /** The target as the file or option named it (an e-mail, or `user 123`), for messages. */
  named: string;
  /** The row's own target, or the fallback (`--transfer-to`) when the row's cannot take over. */
  from: 'row' | 'fallback';
  /** The user it resolved to; undefined when the organization has nobody by that name. */
  user: User | UserProfile | undefined;
  /** Where the target is itself leaving or being removed (`this file, row 4`); undefined when it is not. */
  leavingIn?: string | undefined;
}

export interface RemovalFacts {
  /** The user to remove. */
  user: Pick<User, 'id' | 'email' | 'status'>;
  groups: GroupOwnership;
  /** Who could take over, in order: the row's target, then the fallback. Empty: nobody. */
  candidates: readonly TransferCandidate[];
  /** Whether owned sheets go to the target (`transferSheets`); without it they stay with the removed user. */
  transferSheets: boolean;
}

export type RemovalVerdict =
  | { ok: true; transferTo?: { email: string; userId: number }; notes: string[] }
  | { ok: false; rule: Rule; reason: string; transferToUserId?: number };

/** Why one candidate cannot take over, or undefined when it can. */
export function transferTargetProblem(candidate: TransferCandidate, facts: Pick<RemovalFacts, 'user' | 'groups'>): string | undefined {
  const { user, named } = candidate;
  if (user === undefined) return `transfer target ${named} is not a user of the organization`;
  if (user.id === facts.user.id) return `transfer target ${named} is the user being removed`;
  if (user.status !== undefined && user.status !== 'ACTIVE') return `transfer target ${named} is ${user.status}, not ACTIVE`;
  // Judged by the seat the service reports: a user downgraded to a free seat keeps licensedSheetCreator on some plans.
  const seat = ownsSheetsBySeat(user);
  if (seat.can === false) return `transfer target ${named} is not licensed (${seat.seat === undefined ? 'licensedSheetCreator is false' : `a ${seat.seat} seat`}: cannot own sheets)`;
  if (candidate.leavingIn !== undefined) return `transfer target ${named} is leaving too (${candidate.leavingIn})`;
  const owned = facts.groups.known ? facts.groups.groups.length : 0;
  // The service refuses a target who is not a group admin when there are groups to hand over (1107).
  if (owned > 0 && !isGroupAdmin(user)) return `transfer target ${named} is not a group admin and cannot receive the ${owned} group(s) the user owns`;
  return undefined;
}

/**
 * The verdict on removing a user: the first candidate that can take over, else a refusal with every candidate's
 * problem; without any candidate, a removal only when the user is known to own no group (the service refuses to remove
 * a group owner without transferTo, 1108), saying that the sheets stay with the removed user.
 */
export function judgeRemoval(facts: RemovalFacts): RemovalVerdict {
  if (facts.candidates.length > 0 && facts.user.status === 'PENDING') {
    return { ok: false, rule: RULES.statusNotEligible, reason: 'the user is PENDING: the service takes no transfer target for a pending user; remove it without one' };
  }
  const problems: string[] = [];
  for (const candidate of facts.candidates) {
    const problem = transferTargetProblem(candidate, facts);
    if (problem !== undefined) {
      problems.push(problem);
      continue;
    }
    const user = candidate.user!;
    const notes: string[] = [];
    if (problems.length > 0) notes.push(`${problems.join('; ')}: transfers to --transfer-to ${candidate.named} instead`);
    if (!facts.groups.known && !isGroupAdmin(user)) {
      notes.push(`group ownership unknown (${facts.groups.why}): if the user owns a group, the service refuses the removal, ${candidate.named} not being a group admin (1107)`);
    }
    if (!facts.transferSheets) notes.push('sheets stay with the removed user (transferSheets is not true)');
    // Full access now, but a free seat at the end of the review period unless someone upgrades it.
    if (user.seatType === 'PROVISIONAL_MEMBER') notes.push(`${candidate.named} is a Provisional Member: upgrade it to MEMBER, or what it receives goes to a free seat at the end of its review period`);
    return { ok: true, transferTo: { email: user.email.toLowerCase(), userId: user.id }, notes };
  }
  if (problems.length > 0) {
    const rowTarget = facts.candidates.find((candidate) => candidate.from === 'row')?.user;
    return { ok: false, rule: RULES.transferTargetInvalid, reason: problems.join('; '), ...(rowTarget === undefined ? {} : { transferToUserId: rowTarget.id }) };
  }
  if (!facts.groups.known) {
    return {
      ok: false,
      rule: RULES.groupOwnershipUnknown,
      reason: `group ownership unknown (${facts.groups.why}), and without a transfer target the service refuses to remove a group owner (1108): name a transfer target who is a group admin`,
    };
  }
  if (facts.groups.groups.length > 0) {
    return { ok: false, rule: RULES.ownsGroupsWithoutTransferTo, reason: `owns ${facts.groups.groups.length} group(s) and has no transfer target: name one who is a group admin` };
  }
  return { ok: true, notes: ['no transfer target: sheets stay with the removed user'] };
}

/** A target the service hands groups to (1107 otherwise): a group admin, or a System Admin. */
export function isGroupAdmin(user: User | UserProfile): boolean {
  return user.groupAdmin === true || user.admin === true;
}
