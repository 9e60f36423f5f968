import type { ActionOf } from '../src/manifest/action.js';
import { readCheckedUpload } from './checked-upload.js';
import { callOptions, succeeded } from './job-support.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';
import { resolveUserId } from './resolve-target.js';

/**
 * set-profile-image: upload an image as the user's profile picture: the file the plan checked, re-checked now
 * (checked-upload.ts), with the type its bytes show (the service scales and pads it, so the stored
 * bytes are not ours and cannot be compared). Confirm: get the user;
 * - no profile image → not-done;
 * - the pre-flight recorded the imageId from before the batch and the current one differs → done (a new image was
 *   stored since; ours, unless someone else uploaded one in between);
 * - otherwise → not-done: the upload is repeated. Without the pre-flight's imageId (a target built by hand) a
 *   second upload of the same file may happen: the same picture, but the user changed twice.
 */
export const setProfileImageJob: ReversibleJobType<ActionOf<'set-profile-image'>> = {
  action: 'set-profile-image',
  repeatShows: true,

  async run(context) {
    const userId = await resolveUserId(context);
    const image = await readCheckedUpload('uploadProfileImage', context.target.upload);
    const user = await context.api.users.uploadProfileImage(userId, image, callOptions(context));
    const imageId = user.profileImage?.imageId;
    return succeeded({ userId, ...(imageId === undefined ? {} : { imageId }) });
  },

  async confirm(context) {
    const user = await context.api.users.get(await resolveUserId(context), callOptions(context));
    const current = user.profileImage?.imageId;
    const before = context.target.profileImageId;
    return current !== undefined && before !== undefined && current !== before ? 'done' : 'not-done';
  },

  inverse: () => cannotInvert('the image before cannot be put back: the service keeps no earlier image and seatflow never read its bytes'),
};
