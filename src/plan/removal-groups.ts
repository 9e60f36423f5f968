import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { LoadedManifest } from '../manifest/load-manifest.js';
import { createGroupOwnershipReader, type GroupOwnership } from './group-ownership.js';
import { findUser, type KnownUsers } from './preflight-facts.js';

/**
 * Group ownership of the users of remove rows whose verdict depends on it: rows without a transfer target (a group
 * owner cannot be removed without one, 1108) and rows whose target is not a group admin (1107). One call per such
 * user, or none once the service shows it does not list groups (group-ownership.ts).
 */
export async function readRemovalGroups(api: SmartsheetApi, rows: LoadedManifest['rows'], known: KnownUsers): Promise<Map<number, GroupOwnership>> {
  const reader = createGroupOwnershipReader(api);
  const owned = new Map<number, GroupOwnership>();
  for (const { action } of rows) {
    if (action.action !== 'remove') continue;
    const user = findUser(known, action.user);
    if (user === undefined || owned.has(user.id)) continue;
    const heir = action.transferTo === undefined ? undefined : findUser(known, action.transferTo);
    if (action.transferTo !== undefined && (heir === undefined || heir.groupAdmin === true || heir.admin === true)) continue;
    owned.set(user.id, (await reader.read(user.id)).ownership);
  }
  return owned;
}
