import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { paginate, readPaging } from '../http/paging.js';
import { pathId, queryIncludes } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import type { AttachmentRecord, DiscussionRecord, SheetRecord } from '../state/records.js';
import { discussionView } from '../state/sheet-views.js';
import { isMultipart, readDiscussionUpload } from './discussion-multipart.js';
import { requireSheet, success } from './route-helpers.js';

function requireDiscussion(ctx: RouteContext, sheet: SheetRecord): DiscussionRecord {
  const id = pathId(ctx.params.discussionId);
  const discussion = sheet.discussions.find((d) => d.id === id);
  if (discussion === undefined) throw ApiError.notFound('Discussion not found.');
  return discussion;
}

/** Create discussion, with or without an attachment; the title is the first 100 characters of the comment. */
async function create(ctx: RouteContext): Promise<unknown> {
  const { sheet, level } = requireSheet(ctx, 'COMMENTER');
  const upload = isMultipart(ctx.request) ? await readDiscussionUpload(ctx.request) : undefined;
  const body = upload === undefined ? ctx.body : upload.discussion;
  const text = (body as { comment?: { text?: unknown } } | null | undefined)?.comment?.text;
  if (typeof text !== 'string' || text.trim() === '') {
    throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: comment.text');
  }
  const { state, clock } = ctx.server;
  const now = clock.now();
  const author = ctx.principal.user.id;
  const attachments: AttachmentRecord[] = [];
  if (upload !== undefined) {
    const { file } = upload;
    attachments.push({ id: state.ids.next(), name: file.name, mimeType: file.mimeType, sizeInKb: Math.ceil(file.bytes / 1024), createdAt: now, createdBy: author });
  }
  const title = (body as { title?: unknown }).title;
  const discussion: DiscussionRecord = {
    id: state.ids.next(),
    title: typeof title === 'string' && title !== '' ? title : text.slice(0, 100),
    parentType: 'SHEET',
    parentId: sheet.id,
    createdBy: author,
    comments: [{ id: state.ids.next(), text, createdBy: author, createdAt: now, modifiedAt: now, attachments }],
  };
  sheet.discussions.push(discussion);
  sheet.version += 1;
  sheet.modifiedAt = now;
  ctx.server.mutations.record({
    operation: 'createDiscussion',
    resourceType: 'discussion',
    resourceId: discussion.id,
    summary: `discussion on sheet ${sheet.id}${attachments.length > 0 ? ` with attachment ${attachments[0]?.name}` : ''}`,
  });
  ctx.server.events.sheet(sheet, { objectType: 'discussion', eventType: 'created', id: discussion.id });
  const view = discussionView(discussion, { lookup: (id) => state.users.get(id), dates: ctx.dates, accessLevel: level, withComments: true, withAttachments: true });
  return success(view, sheet.version);
}

function viewOptions(ctx: RouteContext, level: Parameters<typeof discussionView>[1]['accessLevel'], forceComments: boolean) {
  const include = queryIncludes(ctx.query);
  const withComments = forceComments || include.has('comments');
  return {
    lookup: (id: number) => ctx.server.state.users.get(id),
    dates: ctx.dates,
    accessLevel: level,
    withComments,
    withAttachments: include.has('attachments'),
  };
}

function remove(ctx: RouteContext): unknown {
  const { sheet, level } = requireSheet(ctx, 'COMMENTER');
  const discussion = requireDiscussion(ctx, sheet);
  const mayDelete = discussion.createdBy === ctx.principal.user.id || level === 'OWNER' || level === 'ADMIN';
  if (!mayDelete) throw new ApiError(403, CODES.cannotEditOthersDiscussion, "You cannot delete another user's discussion.");
  sheet.discussions = sheet.discussions.filter((d) => d !== discussion);
  sheet.version += 1;
  ctx.server.mutations.record({ operation: 'deleteDiscussion', resourceType: 'discussion', resourceId: discussion.id, summary: `deleted discussion of sheet ${sheet.id}` });
  ctx.server.events.sheet(sheet, { objectType: 'discussion', eventType: 'deleted', id: discussion.id });
  return success(undefined, sheet.version);
}

export const discussionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/sheets/:sheetId/discussions',
    operation: 'createDiscussion',
    // With an attachment it is an upload, which costs 10 (docs/service.md#rate-limits).
    cost: (request) => (isMultipart(request) ? 10 : 1),
    handle: create,
  },
  {
    method: 'GET',
    path: '/sheets/:sheetId/discussions',
    operation: 'listDiscussions',
    // Sheet-level and row-level discussions alike (docs/service.md#discussions).
    handle: (ctx) => {
      const { sheet, level } = requireSheet(ctx, 'VIEWER');
      const options = viewOptions(ctx, level, false);
      return paginate(sheet.discussions, readPaging(ctx.query), (d) => discussionView(d, options));
    },
  },
  {
    method: 'GET',
    path: '/sheets/:sheetId/discussions/:discussionId',
    operation: 'getDiscussion',
    handle: (ctx) => {
      const { sheet, level } = requireSheet(ctx, 'VIEWER');
      return discussionView(requireDiscussion(ctx, sheet), viewOptions(ctx, level, true));
    },
  },
  { method: 'DELETE', path: '/sheets/:sheetId/discussions/:discussionId', operation: 'deleteDiscussion', handle: remove },
];
