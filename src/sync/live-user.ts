import type { AlternateEmail, SeatType, Timestamp, UnrecognizedValue, User, UserStatus } from '../contract/index.js';

/** The seat a user holds in one plan, as a plan-filtered listing reports it (docs/service.md#list-users). */
export interface LiveSeat {
  planId: number;
  seatType?: SeatType;
  isInternal?: boolean;
  /** When a Provisional Member seat drops to a free seat; absent when the seat is not provisional. */
  provisionalExpirationDate?: Timestamp;
  seatTypeLastChangedAt?: Timestamp;
  /** A seat type seatflow does not know, kept as the service sent it (docs/service.md#reading-leniently). */
  unrecognized?: UnrecognizedValue[];
}

/** A group the user owns. */
export interface OwnedGroup {
  id: number;
  name: string;
}

/** What the read could not learn: the service gives no way to read it for this user within its rules. */
export const UNKNOWN = 'unknown';
export type Unknown = typeof UNKNOWN;

/**
 * One user of the live organization, as `openLiveOrganization` reads it and a JSON Lines export stores it: the
 * snapshot `seatflow sync` compares an HR export against. Fields the read was not asked for are absent.
 */
export interface LiveUser {
  id: number;
  email: string;
  name?: string;
  firstName?: string;
  lastName?: string;
  status?: UserStatus;
  admin?: boolean;
  groupAdmin?: boolean;
  resourceViewer?: boolean;
  licensedSheetCreator?: boolean;
  /** One per plan read in which the user holds a seat, in the order the plans were read. */
  seats: LiveSeat[];
  /** Absent when the user never logged in (or lastLogin was not read). */
  lastLogin?: Timestamp;
  /** Readable for the caller only (docs/service.md#get-user); `unknown` for everyone else. */
  groupsOwned?: OwnedGroup[] | Unknown;
  /** `unknown` when the user left the organization before their profile was read. */
  alternateEmails?: AlternateEmail[] | Unknown;
  /** Values of the user (a status) seatflow does not know, kept as the service sent them. */
  unrecognized?: UnrecognizedValue[];
}

/** The seat a plan-filtered listing reports on `user`, with the seat type the service sent if seatflow does not know it. */
export function seatOf(user: User, planId: number): LiveSeat {
  const seat: LiveSeat = { planId };
  if (user.seatType !== undefined) seat.seatType = user.seatType;
  if (user.isInternal !== undefined) seat.isInternal = user.isInternal;
  // Null (not provisional) reads as absent, as every null does (docs/service.md#reading-leniently).
  if (user.provisionalExpirationDate !== undefined && user.provisionalExpirationDate !== null) seat.provisionalExpirationDate = user.provisionalExpirationDate;
  if (user.seatTypeLastChangedAt !== undefined) seat.seatTypeLastChangedAt = user.seatTypeLastChangedAt;
  const unknownSeat = user.unrecognized?.filter((value) => value.field === 'seatType') ?? [];
  if (unknownSeat.length > 0) seat.unrecognized = unknownSeat;
  return seat;
}

/**
 * The user's own facts from any listing: identity, status and admin flags. Seat fields are left out: a listing reports
 * a seat only for the plan it was filtered by (docs/service.md#list-users), so seats come from `seatOf`.
 */
export function userOf(user: User): LiveUser {
  const live: LiveUser = { id: user.id, email: user.email, seats: [] };
  if (user.name !== undefined) live.name = user.name;
  if (user.firstName !== undefined) live.firstName = user.firstName;
  if (user.lastName !== undefined) live.lastName = user.lastName;
  if (user.status !== undefined) live.status = user.status;
  if (user.admin !== undefined) live.admin = user.admin;
  if (user.groupAdmin !== undefined) live.groupAdmin = user.groupAdmin;
  if (user.resourceViewer !== undefined) live.resourceViewer = user.resourceViewer;
  if (user.licensedSheetCreator !== undefined) live.licensedSheetCreator = user.licensedSheetCreator;
  if (user.lastLogin !== undefined) live.lastLogin = user.lastLogin;
  const unknownOwn = user.unrecognized?.filter((value) => value.field !== 'seatType') ?? [];
  if (unknownOwn.length > 0) live.unrecognized = unknownOwn;
  return live;
}
