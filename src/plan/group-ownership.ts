import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { UserProfile } from '../contract/index.js';
import { isNotFound } from './count-calls.js';

/** The groups a user owns, as far as the service tells: a removal of a group owner needs a transfer target (1108). */
export type GroupOwnership =
  | { known: true; groups: readonly { id: number; name: string }[] }
  | { known: false; why: string };

/** What the plan says when the service did not list a user's groups. */
export const GROUPS_NOT_LISTED = 'the service does not list the groups of another user (include=groups is documented for /users/me only)';

/** The groups a profile says the user owns; unknown when the service listed no groups, or listed them without owners. */
export function groupsOwnedBy(profile: UserProfile): GroupOwnership {
  if (profile.groups === undefined) return { known: false, why: GROUPS_NOT_LISTED };
  if (profile.groups.some((group) => group.ownerId === undefined)) return { known: false, why: 'the service listed the user\'s groups without their owners' };
  return { known: true, groups: profile.groups.filter((group) => group.ownerId === profile.id).map((group) => ({ id: group.id, name: group.name })) };
}

export interface GroupOwnershipReader {
  /** The user's profile with `include=groups`, and what it says about owned groups; undefined profile: not found. */
  read(userId: number, signal?: AbortSignal): Promise<{ profile?: UserProfile; ownership: GroupOwnership }>;
}

/**
 * Reads group ownership one user at a time (`GET /users/{id}?include=groups`). The service documents the include for
 * /users/me only: once an answer carries no `groups` at all, the service is taken not to list them and the users
 * after it are unknown without a call (a 5,000-row removal file costs one call, not 5,000, to learn that).
 */
export function createGroupOwnershipReader(api: SmartsheetApi): GroupOwnershipReader {
  let listed = true;
  return {
    async read(userId, signal) {
      if (!listed) return { ownership: { known: false, why: GROUPS_NOT_LISTED } };
      let profile: UserProfile;
      try {
        profile = await api.users.get(userId, { include: ['groups'], ...(signal === undefined ? {} : { signal }) });
      } catch (error) {
        if (isNotFound(error)) return { ownership: { known: false, why: 'the user was not found when its groups were read' } };
        throw error;
      }
      if (profile.groups === undefined) listed = false;
      return { profile, ownership: groupsOwnedBy(profile) };
    },
  };
}
