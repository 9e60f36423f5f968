import type { Attachment, Column, Comment, Discussion, MiniUser, SheetSummary } from '../../contract/index.js';
import type { DateFormat } from '../http/date-format.js';
import { fullName } from './user-views.js';
import type { AccessLevel, AttachmentRecord, ColumnRecord, CommentRecord, DiscussionRecord, SheetRecord, UserRecord } from './records.js';

/** `version` of a column: 0 text-compatible, 1 multi-contact, 2 multi-picklist (docs/service.md#columns). */
function columnVersion(column: ColumnRecord): number {
  if (column.type === 'MULTI_CONTACT_LIST') return 1;
  if (column.type === 'MULTI_PICKLIST') return 2;
  return 0;
}

/**
 * A column as reported at a compatibility level (docs/service.md#columns): below the column's version a MULTI_* column is
 * reported as TEXT_NUMBER, as the real service does without `level`.
 */
export function columnView(column: ColumnRecord, index: number, level: number, includeFormat = false): Column {
  const version = columnVersion(column);
  const view: Column = {
    id: column.id,
    index,
    title: column.title,
    type: version > level ? 'TEXT_NUMBER' : column.type,
    validation: column.validation,
    width: column.width,
    version,
  };
  if (column.primary) view.primary = true;
  if (column.options !== undefined && version <= level) view.options = [...column.options];
  if (column.contactOptions !== undefined) view.contactOptions = column.contactOptions.map((c) => ({ ...c }));
  if (column.symbol !== undefined) view.symbol = column.symbol;
  if (column.systemColumnType !== undefined) view.systemColumnType = column.systemColumnType;
  if (column.autoNumberFormat !== undefined) view.autoNumberFormat = { ...column.autoNumberFormat };
  if (column.hidden) view.hidden = true;
  if (column.locked) view.locked = true;
  if (column.description !== undefined) view.description = column.description;
  if (column.formula !== undefined) view.formula = column.formula;
  if (includeFormat && column.format !== undefined) view.format = column.format;
  if (column.tags !== undefined && column.tags.length > 0) view.tags = [...column.tags];
  return view;
}

export type UserLookup = (id: number) => UserRecord | undefined;

export function miniUser(lookup: UserLookup, id: number): MiniUser {
  const user = lookup(id);
  return user === undefined ? {} : { name: fullName(user), email: user.email };
}

function attachmentView(record: AttachmentRecord, commentId: number, lookup: UserLookup, dates: DateFormat): Attachment {
  return {
    id: record.id,
    parentId: commentId,
    parentType: 'COMMENT',
    attachmentType: 'FILE',
    mimeType: record.mimeType,
    name: record.name,
    sizeInKb: record.sizeInKb,
    createdAt: dates(record.createdAt),
    createdBy: miniUser(lookup, record.createdBy),
  };
}

function commentView(record: CommentRecord, discussionId: number, lookup: UserLookup, dates: DateFormat): Comment {
  const view: Comment = {
    id: record.id,
    discussionId,
    text: record.text,
    createdBy: miniUser(lookup, record.createdBy),
    createdAt: dates(record.createdAt),
    modifiedAt: dates(record.modifiedAt),
  };
  if (record.attachments.length > 0) view.attachments = record.attachments.map((a) => attachmentView(a, record.id, lookup, dates));
  return view;
}

export interface DiscussionViewOptions {
  lookup: UserLookup;
  dates: DateFormat;
  accessLevel: AccessLevel;
  withComments: boolean;
  withAttachments: boolean;
}

export function discussionView(record: DiscussionRecord, options: DiscussionViewOptions): Discussion {
  const last = record.comments[record.comments.length - 1];
  const view: Discussion = {
    id: record.id,
    title: record.title,
    parentId: record.parentId,
    parentType: record.parentType,
    commentCount: record.comments.length,
    accessLevel: options.accessLevel,
    readOnly: options.accessLevel === 'VIEWER',
    createdBy: miniUser(options.lookup, record.createdBy),
  };
  if (last !== undefined) {
    view.lastCommentedAt = options.dates(last.createdAt);
    view.lastCommentedUser = miniUser(options.lookup, last.createdBy);
  }
  if (options.withComments) {
    view.comments = record.comments.map((c) => commentView(c, record.id, options.lookup, options.dates));
    // Attachments are listed only together with comments (docs/service.md#discussions).
    if (options.withAttachments) {
      view.commentAttachments = record.comments.flatMap((c) => c.attachments.map((a) => attachmentView(a, c.id, options.lookup, options.dates)));
    }
  }
  return view;
}

/** `ownerInfo` given (include=ownerInfo): the summary carries `ownerId` and, when the owner is known, `owner`. */
export function sheetSummaryView(
  sheet: SheetRecord,
  accessLevel: AccessLevel,
  ownerInfo: { owner: UserRecord | undefined } | undefined,
  dates: DateFormat,
): SheetSummary {
  const view: SheetSummary = {
    id: sheet.id,
    name: sheet.name,
    accessLevel,
    permalink: `https://app.smartsheet.com/sheets/${sheet.id.toString(36)}`,
    createdAt: dates(sheet.createdAt),
    modifiedAt: dates(sheet.modifiedAt),
  };
  if (ownerInfo !== undefined) {
    view.ownerId = sheet.ownerId;
    if (ownerInfo.owner !== undefined) view.owner = ownerInfo.owner.email;
  }
  return view;
}
