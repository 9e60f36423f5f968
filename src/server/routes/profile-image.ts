import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { IMAGE_TYPES } from '../http/content-parsers.js';
import { isSystemAdmin } from '../http/authenticate.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { userView } from '../state/user-views.js';
import { requireUser, success } from './route-helpers.js';

export const MAX_PROFILE_IMAGE_BYTES = 1024 * 1024;

/** Raw image bytes (not multipart), png/jpeg/gif, at most 1 MB (docs/service.md#uploads). */
function upload(ctx: RouteContext): unknown {
  const user = requireUser(ctx);
  if (!isSystemAdmin(ctx.principal) && ctx.principal.user.id !== user.id) throw ApiError.forbidden();
  const type = (ctx.request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) {
    throw new ApiError(415, CODES.mediaTypeNotSupported, 'Profile images must be image/png, image/jpeg or image/gif.');
  }
  const body = ctx.body;
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw ApiError.badRequest(CODES.requiredAttributeMissing, 'The request has no image.');
  }
  if (body.length > MAX_PROFILE_IMAGE_BYTES) {
    throw ApiError.badRequest(CODES.multipartTooLarge, 'The image exceeds the 1 MB size limit.');
  }
  const imageId = `u${user.id.toString(36)}-${ctx.server.state.ids.next().toString(36)}`;
  ctx.server.state.files.set(imageId, body.length);
  // The real service scales and pads images to a square of at most 1050 px.
  user.profileImage = { imageId, height: 1050, width: 1050 };
  ctx.server.mutations.record({ operation: 'addProfileImage', resourceType: 'user', resourceId: user.id, userId: user.id, summary: `profile image ${imageId} (${body.length} bytes, ${type})` });
  return success(userView(user, { dates: ctx.dates, callerIsAdmin: true, displayContributorSeatType: false }));
}

export const profileImageRoutes: RouteDef[] = [
  { method: 'POST', path: '/users/:userId/profileimage', operation: 'addProfileImage', cost: 10, handle: upload },
];
