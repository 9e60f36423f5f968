import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { parseBool, queryInt, queryString } from '../http/query.js';
import type { RouteContext } from '../server-context.js';
import { pathId } from '../http/query.js';
import { bodyObject, requireUser, success } from './route-helpers.js';
import { refuseExternallyManaged } from '../rules/lifecycle-eligibility.js';
import { leaveOrganization } from '../rules/leave-organization.js';

/** Options come as query parameters (every SDK) or as a JSON body (the OpenAPI file); the query wins. */
function readOptions(ctx: RouteContext): { transferTo?: number; transferSheets: boolean; removeFromSharing: boolean } {
  const body = bodyObject(ctx);
  const queryTransfer = queryInt(ctx.query, 'transferTo');
  const bodyTransfer = body.transferTo;
  let transferTo = queryTransfer;
  if (transferTo === undefined && bodyTransfer !== undefined && bodyTransfer !== null) {
    transferTo = Number(bodyTransfer);
    if (!Number.isSafeInteger(transferTo)) throw ApiError.badRequest(CODES.invalidParameterValue, 'Invalid transferTo.');
  }
  const pick = (name: string): boolean =>
    parseBool(queryString(ctx.query, name), name) ?? parseBool(body[name], name) ?? false;
  return { ...(transferTo === undefined ? {} : { transferTo }), transferSheets: pick('transferSheets'), removeFromSharing: pick('removeFromSharing') };
}

/**
 * Remove user (docs/service.md#remove-user): refused for a user managed by an external source (403/9002); owned
 * groups need transferTo (400/1108); sheets move only with transferSheets and transferTo; removeFromSharing drops the
 * user from every sheet's sharing. The user becomes a free collaborator: out of the organization, with read-only
 * access to the sheets it kept.
 */
export function removeUser(ctx: RouteContext): unknown {
  const { state, mutations } = ctx.server;
  // A known user who is no longer in the organization is a refusal (403 1022), not a 404 (docs/service.md#refusal-codes).
  const known = state.users.get(pathId(ctx.params.userId));
  if (known !== undefined && !known.inOrg) throw ApiError.refused(CODES.removeNotMember, `User ${known.id} is not a member of the organization.`);
  const user = requireUser(ctx);
  const options = readOptions(ctx);
  if (user.id === ctx.principal.user.id) throw ApiError.refused(CODES.cannotRemoveSelf, 'You cannot remove yourself.');
  refuseExternallyManaged(user, 'remove');
  const ownedGroups = [...state.groups.values()].filter((g) => g.ownerId === user.id);
  if (options.transferTo !== undefined && user.status === 'PENDING') {
    throw ApiError.badRequest(CODES.attributeNotAllowed, 'transferTo and transferSheets are not allowed for a pending user.');
  }
  const target = options.transferTo === undefined ? undefined : state.users.get(options.transferTo);
  if (options.transferTo !== undefined && (target === undefined || target.id === user.id)) {
    throw ApiError.badRequest(CODES.transferTargetNotFound, `Transfer target ${options.transferTo} not found.`);
  }
  if (target !== undefined && !target.inOrg) {
    throw ApiError.refused(CODES.transferTargetNotMember, `Transfer target ${target.id} is not a member of the organization.`);
  }
  if (ownedGroups.length > 0 && target === undefined) {
    throw ApiError.badRequest(CODES.transferToRequired, 'transferTo is required because the user owns groups.');
  }
  if (ownedGroups.length > 0 && target !== undefined && !target.groupAdmin && !target.admin) {
    throw ApiError.badRequest(1107, 'The transfer target must be a group admin to receive groups.');
  }
  const now = ctx.server.clock.now();
  for (const group of ownedGroups) {
    if (target === undefined) break;
    group.ownerId = target.id;
    group.modifiedAt = now;
  }
  let movedSheets = 0;
  let unshared = 0;
  for (const sheet of state.sheets.values()) {
    if (options.transferSheets && target !== undefined && sheet.ownerId === user.id) {
      sheet.ownerId = target.id;
      delete sheet.sharing[String(target.id)];
      sheet.modifiedAt = now;
      movedSheets += 1;
    }
    if (options.removeFromSharing && sheet.sharing[String(user.id)] !== undefined) {
      delete sheet.sharing[String(user.id)];
      unshared += 1;
    }
  }
  leaveOrganization(state, user, ctx.server.events);
  mutations.record({
    operation: 'removeUser',
    resourceType: 'user',
    resourceId: user.id,
    userId: user.id,
    summary:
      `removed ${user.email}; groups→${target?.email ?? 'none'} (${ownedGroups.length}); ` +
      `sheets moved ${movedSheets}; unshared from ${unshared}`,
  });
  return success();
}
