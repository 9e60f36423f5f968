import type { ActionOf } from '../src/manifest/action.js';
import type { JobContext, JobType } from '../src/queue/job-type.js';
import { readCheckedUpload } from './checked-upload.js';
import { discussionMarker } from './discussion-marker.js';
import { callOptions, succeeded } from './job-support.js';

type CreateDiscussionAction = ActionOf<'create-discussion'>;

function sheetIdOf(context: JobContext<CreateDiscussionAction>): number {
  return context.target.sheetId ?? context.action.sheetId;
}

/**
 * create-discussion: start a sheet-level discussion with the row's comment (and optional file: the one the plan
 * checked, re-checked now, see checked-upload.ts).
 * Confirm: list the sheet's discussions with their comments; one whose first comment carries this row's invisible
 * marker (discussion-marker.ts) → done. The marker makes the match exact: neither an older discussion with the same
 * words nor one from another row or batch counts. A discussion deleted by someone after our create → not-done (a
 * second one is posted; the service keeps no trace of the first).
 */
export const createDiscussionJob: JobType<CreateDiscussionAction> = {
  action: 'create-discussion',

  async run(context) {
    const sheetId = sheetIdOf(context);
    const body = { comment: { text: context.action.comment + discussionMarker(context.batchId, context.row) } };
    const discussion =
      context.action.file === undefined
        ? await context.api.discussions.create(sheetId, body, callOptions(context))
        : await context.api.discussions.createWithAttachment(sheetId, body, await readCheckedUpload('createDiscussionWithAttachment', context.target.upload), callOptions(context));
    return succeeded({ sheetId, discussionId: discussion.id });
  },

  async confirm(context) {
    const marker = discussionMarker(context.batchId, context.row);
    for await (const discussion of context.api.discussions.list(sheetIdOf(context), { ...callOptions(context), include: ['comments'] })) {
      if (discussion.comments?.[0]?.text?.includes(marker) === true) {
        context.logger.info({ discussionId: discussion.id }, 'discussion already on the sheet');
        return 'done';
      }
    }
    return 'not-done';
  },
};
