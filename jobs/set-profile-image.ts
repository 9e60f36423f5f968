import { basename, extname } from 'node:path';
import type { ActionOf } from '../src/manifest/action.js';
import type { JobType } from '../src/queue/job-type.js';
import { callOptions, succeeded } from './job-support.js';
import { resolveUserId } from './resolve-target.js';

const CONTENT_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };

/**
 * set-profile-image: upload an image as the user's profile picture (the service scales and pads it, so the stored
 * bytes are not ours and cannot be compared). Confirm: get the user;
 * - no profile image → not-done;
 * - the pre-flight recorded the imageId from before the batch and the current one differs → done (a new image was
 *   stored since; ours, unless someone else uploaded one in between);
 * - otherwise → not-done: the upload is repeated. Without the pre-flight's imageId (a target built by hand) a
 *   second upload of the same file may happen: the same picture, but the user changed twice.
 */
export const setProfileImageJob: JobType<ActionOf<'set-profile-image'>> = {
  action: 'set-profile-image',

  async run(context) {
    const userId = await resolveUserId(context);
    const path = context.action.image;
    const contentType = CONTENT_TYPES[extname(path).toLowerCase()];
    const user = await context.api.users.uploadProfileImage(
      userId,
      { path, fileName: basename(path), ...(contentType === undefined ? {} : { contentType }) },
      callOptions(context),
    );
    const imageId = user.profileImage?.imageId;
    return succeeded({ userId, ...(imageId === undefined ? {} : { imageId }) });
  },

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    const current = user.profileImage?.imageId;
    const before = context.target.profileImageId;
    return current !== undefined && before !== undefined && current !== before ? 'done' : 'not-done';
  },
};
