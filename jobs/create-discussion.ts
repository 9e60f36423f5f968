import type { Discussion } from '../src/contract/discussion.js';
import type { ActionOf } from '../src/manifest/action.js';
import type { JobContext } from '../src/queue/job-type.js';
import { readCheckedUpload } from './checked-upload.js';
import { discussionMarker } from './discussion-marker.js';
import { callOptions, succeeded } from './job-support.js';
import { cannotInvert, type ReversibleJobType } from './inverse-support.js';

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
 * A create that got no answer may land late, after a confirm found nothing: the queue waits out the client's timeouts
 * before confirming, and after creating again `keepOne` removes a second discussion with this row's marker.
 */
export const createDiscussionJob: ReversibleJobType<CreateDiscussionAction> = {
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
    const [found] = await discussionsOfRow(context);
    if (found === undefined) return 'not-done';
    context.logger.info({ discussionId: found.id }, 'discussion already on the sheet');
    return 'done';
  },

  creates: true,

  async keepOne(context) {
    const [kept, ...others] = await discussionsOfRow(context);
    if (kept === undefined || others.length === 0) return undefined;
    const sheetId = sheetIdOf(context);
    for (const other of others) await context.api.discussions.delete(sheetId, other.id, callOptions(context));
    return { sheetId, discussionId: kept.id, duplicatesRemoved: others.map((d) => d.id).join(' ') };
  },

  inverse: () => cannotInvert('no seatflow action deletes a discussion (and others may have replied to it): delete it in Smartsheet if it should go'),
};

/**
 * The sheet's discussions carrying this row's marker, oldest first (by the first comment's time, then id), so that
 * two workers cleaning up the same row keep the same one.
 */
async function discussionsOfRow(context: JobContext<CreateDiscussionAction>): Promise<Discussion[]> {
  const marker = discussionMarker(context.batchId, context.row);
  const found: Discussion[] = [];
  for await (const discussion of context.api.discussions.list(sheetIdOf(context), { ...callOptions(context), include: ['comments'] })) {
    if (discussion.comments?.[0]?.text?.includes(marker) === true) found.push(discussion);
  }
  const createdMs = (d: Discussion): number => {
    const at = d.comments?.[0]?.createdAt;
    const ms = typeof at === 'number' ? at : at === undefined ? Number.NaN : Date.parse(at);
    return Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms;
  };
  return found.sort((a, b) => createdMs(a) - createdMs(b) || a.id - b.id);
}
