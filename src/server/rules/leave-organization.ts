import type { ServerState } from '../state/server-state.js';
import type { UserRecord } from '../state/records.js';
import type { ServerEvents } from '../webhooks/server-events.js';

/**
 * A user leaves the organization, by the API or the Admin Center (docs/service.md#remove-user): out of every group,
 * no admin flags, no seat, a free collaborator. The plans' webhooks hear of it while the seats are still there, so the
 * event names each plan (and whether the user was internal to it).
 */
export function leaveOrganization(state: ServerState, user: UserRecord, events: ServerEvents): void {
  for (const group of state.groups.values()) group.memberIds = group.memberIds.filter((id) => id !== user.id);
  events.user('removed', user, user.seats.map((s) => s.planId));
  user.inOrg = false;
  user.admin = false;
  user.groupAdmin = false;
  user.resourceViewer = false;
  user.licensedSheetCreator = false;
  user.seats = [];
}
