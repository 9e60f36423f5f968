import type { User, UserProfile } from '../contract/index.js';

export interface TargetFacts {
  /** The leaver owns groups (the target then has to be able to receive them). */
  ownsGroups: boolean;
  /** Where the target is itself leaving, e.g. `this file, row 4` or `offboarding o1234 row 2`; undefined when not. */
  leavingIn: string | undefined;
}

/**
 * Why a user cannot take over a leaver's sheets and groups, or undefined when they can: an active, licensed user who
 * is not leaving too, and a group admin when there are groups to take (the service refuses otherwise, 1107).
 */
export function transferTargetProblem(email: string, user: User | UserProfile | undefined, facts: TargetFacts): string | undefined {
  if (user === undefined) return `transfer target ${email} is not a user of the organization`;
  if (user.status !== undefined && user.status !== 'ACTIVE') return `transfer target ${email} is ${user.status}, not ACTIVE`;
  if (user.licensedSheetCreator === false) return `transfer target ${email} is not licensed (cannot own sheets)`;
  if (facts.leavingIn !== undefined) return `transfer target ${email} is leaving too (${facts.leavingIn})`;
  if (facts.ownsGroups && user.groupAdmin !== true && user.admin !== true) return `transfer target ${email} is not a group admin and cannot receive the leaver's groups`;
  return undefined;
}

/** The groups a profile says the user owns, or undefined when the service did not list groups. */
export function groupsOwnedBy(profile: UserProfile): { id: number; name: string }[] | undefined {
  if (profile.groups === undefined) return undefined;
  return profile.groups.filter((group) => group.ownerId === profile.id).map((group) => ({ id: group.id, name: group.name }));
}
