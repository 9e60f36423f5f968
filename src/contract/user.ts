import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';
import { SEAT_TYPES, USER_STATUSES } from './enums.js';
import { alternateEmailSchema } from './alternate-email.js';

export const profileImageSchema = z.object({
  imageId: z.string(),
  // OA24 types these as strings, the mocks and the Java SDK as numbers (wire.md §10 item 10): take both.
  height: z.coerce.number().optional(),
  width: z.coerce.number().optional(),
});
export type ProfileImage = z.infer<typeof profileImageSchema>;

/** The fields a caller may set on a user: add user and update user take them, every user carries them. */
const writableUserFields = {
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  admin: z.boolean().optional(),
  licensedSheetCreator: z.boolean().optional(),
  groupAdmin: z.boolean().optional(),
  resourceViewer: z.boolean().optional(),
};

/** A user as list users, add user and update user return it (wire.md §9.1). Unknown fields are dropped. */
export const userSchema = z.object({
  id: idSchema,
  email: z.string(),
  name: z.string().optional(),
  ...writableUserFields,
  status: z.enum(USER_STATUSES).optional(),
  sheetCount: z.number().optional(),
  lastLogin: timestampSchema.optional(),
  customWelcomeScreenViewed: timestampSchema.optional(),
  profileImage: profileImageSchema.optional(),
  isInternal: z.boolean().optional(),
  seatType: z.enum(SEAT_TYPES).optional(),
  seatTypeLastChangedAt: timestampSchema.optional(),
  provisionalExpirationDate: timestampSchema.nullable().optional(),
  planId: idSchema.optional(),
  alternateEmails: z.array(alternateEmailSchema).optional(),
  company: z.string().optional(),
  department: z.string().optional(),
  mobilePhone: z.string().optional(),
  role: z.string().optional(),
  title: z.string().optional(),
  workPhone: z.string().optional(),
});
export type User = z.infer<typeof userSchema>;

export const groupSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string().optional(),
  owner: z.string().optional(),
  ownerId: idSchema.optional(),
  createdAt: timestampSchema.optional(),
  modifiedAt: timestampSchema.optional(),
});
export type GroupSummary = z.infer<typeof groupSummarySchema>;

/** GET /users/me and GET /users/{id} (wire.md §9.2). `/users/me` carries no status. */
export const userProfileSchema = userSchema.extend({
  account: z.object({ id: idSchema, name: z.string() }).optional(),
  locale: z.string().optional(),
  timeZone: z.string().optional(),
  jiraAdmin: z.boolean().optional(),
  salesforceAdmin: z.boolean().optional(),
  salesforceUser: z.boolean().optional(),
  groups: z.array(groupSummarySchema).optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** The body of add user. */
export const userCreateSchema = z.object({ email: z.string().min(1), ...writableUserFields });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** The body of update user: every field optional. */
export const userUpdateSchema = z.object(writableUserFields);
export type UserUpdate = z.infer<typeof userUpdateSchema>;
