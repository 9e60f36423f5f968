import { z } from 'zod';
import { idSchema, timestampSchema } from './ids.js';
import { SEAT_TYPES, USER_STATUSES, type SeatType, type UserStatus } from './enums.js';
import { alternateEmailSchema } from './alternate-email.js';
import { recognize, type UnrecognizedValue } from './unrecognized-value.js';

export const profileImageSchema = z.object({
  imageId: z.string(),
  // The OpenAPI file types these as strings, the mocks and the Java SDK as numbers (docs/service.md#user-objects): take both.
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

/**
 * A user as the wire carries it. Enumerations and `isInternal` are read leniently (docs/service.md#reading-leniently):
 * a status or seat type the service adds tomorrow, or a null, must not fail a page of 2000 users.
 */
const rawUserFields = {
  id: idSchema,
  email: z.string(),
  name: z.string().optional(),
  ...writableUserFields,
  status: z.string().nullish(),
  sheetCount: z.number().optional(),
  lastLogin: timestampSchema.optional(),
  customWelcomeScreenViewed: timestampSchema.optional(),
  profileImage: profileImageSchema.optional(),
  isInternal: z.boolean().nullish(),
  seatType: z.string().nullish(),
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
};

type Lenient = 'status' | 'seatType' | 'isInternal';

/** The typed fields of a user once read: known values only; what was not known is in `unrecognized`. */
interface KnownValues {
  status?: UserStatus;
  seatType?: SeatType;
  isInternal?: boolean;
  /** Values of this user that seatflow does not know (a new seat type, a new status), kept instead of failing the page. */
  unrecognized?: UnrecognizedValue[];
}

type RawUserLike = { status?: string | null | undefined; seatType?: string | null | undefined; isInternal?: boolean | null | undefined };

/** Turns the raw lenient fields into known values (or `unrecognized` entries); nulls become absent. */
function settle<R extends RawUserLike>(raw: R): Omit<R, Lenient> & KnownValues {
  const unrecognized: UnrecognizedValue[] = [];
  const { status, seatType, isInternal, ...rest } = raw;
  const user: Omit<R, Lenient> & KnownValues = rest;
  const knownStatus = recognize(USER_STATUSES, 'status', status, unrecognized);
  if (knownStatus !== undefined) user.status = knownStatus;
  const knownSeat = recognize(SEAT_TYPES, 'seatType', seatType, unrecognized);
  if (knownSeat !== undefined) user.seatType = knownSeat;
  if (isInternal !== undefined && isInternal !== null) user.isInternal = isInternal;
  if (unrecognized.length > 0) user.unrecognized = unrecognized;
  return user;
}

/** A user as list users, add user and update user return it (docs/service.md#user-objects). Unknown fields are dropped. */
export const userSchema = z.object(rawUserFields).transform(settle);
export type User = z.output<typeof userSchema>;

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

/** GET /users/me and GET /users/{id} (docs/service.md#user-objects). `/users/me` carries no status. */
export const userProfileSchema = z
  .object({
    ...rawUserFields,
    account: z.object({ id: idSchema, name: z.string() }).optional(),
    locale: z.string().optional(),
    timeZone: z.string().optional(),
    jiraAdmin: z.boolean().optional(),
    salesforceAdmin: z.boolean().optional(),
    salesforceUser: z.boolean().optional(),
    groups: z.array(groupSummarySchema).optional(),
  })
  .transform(settle);
export type UserProfile = z.output<typeof userProfileSchema>;

/** The body of add user. */
export const userCreateSchema = z.object({ email: z.string().min(1), ...writableUserFields });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** The body of update user: every field optional. */
export const userUpdateSchema = z.object(writableUserFields);
export type UserUpdate = z.infer<typeof userUpdateSchema>;
