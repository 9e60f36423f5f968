import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';

export const miniUserSchema = z.object({ name: z.string().optional(), email: z.string().optional() });
export type MiniUser = z.infer<typeof miniUserSchema>;

export const attachmentSchema = z.object({
  id: idSchema,
  parentId: idSchema.optional(),
  parentType: z.string().optional(),
  attachmentType: z.string().optional(),
  attachmentSubType: z.string().optional(),
  mimeType: z.string().optional(),
  name: z.string().optional(),
  sizeInKb: z.number().optional(),
  url: z.string().optional(),
  urlExpiresInMillis: z.number().optional(),
  createdAt: timestampSchema.optional(),
  createdBy: miniUserSchema.optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const commentSchema = z.object({
  id: idSchema,
  discussionId: idSchema.optional(),
  text: z.string().optional(),
  createdBy: miniUserSchema.optional(),
  createdAt: timestampSchema.optional(),
  modifiedAt: timestampSchema.optional(),
  attachments: z.array(attachmentSchema).optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const DISCUSSION_PARENT_TYPES = ['SHEET', 'ROW'] as const;

/** A discussion on a sheet or on a row of it (docs/service.md#discussions). */
export const discussionSchema = z.object({
  id: idSchema,
  title: z.string().optional(),
  comments: z.array(commentSchema).optional(),
  commentAttachments: z.array(attachmentSchema).optional(),
  commentCount: z.number().optional(),
  accessLevel: z.string().optional(),
  parentId: idSchema.optional(),
  parentType: z.enum(DISCUSSION_PARENT_TYPES).optional(),
  readOnly: z.boolean().optional(),
  createdBy: miniUserSchema.optional(),
  lastCommentedAt: timestampSchema.optional(),
  lastCommentedUser: miniUserSchema.optional(),
});
export type Discussion = z.infer<typeof discussionSchema>;

/** The body of create discussion: the first comment, and an optional title. */
export const discussionCreateSchema = z.object({
  title: z.string().optional(),
  comment: z.object({ text: z.string().min(1) }),
});
export type DiscussionCreate = z.infer<typeof discussionCreateSchema>;
