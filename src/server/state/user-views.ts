import type { AlternateEmail, SeatType, User, UserPlan, UserProfile } from '../../contract/index.js';
import { isoWithFraction, type DateFormat } from '../http/date-format.js';
import type { AlternateEmailRecord, GroupRecord, OrgRecord, PlanSeat, UserRecord } from './records.js';

export interface UserViewOptions {
  dates: DateFormat;
  /** Admin-only attributes (admin flags, status, sheetCount) are shown to System Admins only (docs/service.md#list-users). */
  callerIsAdmin: boolean;
  displayContributorSeatType: boolean;
  /** The plan whose seat is reported; the user's first plan when absent. */
  planId?: number;
  includeLastLogin?: boolean;
}

/** VIEWER is reported as CONTRIBUTOR when the caller asks (docs/service.md#seat-types). */
export function wireSeatType(seat: PlanSeat['seatType'], displayContributor: boolean): SeatType {
  return seat === 'VIEWER' && displayContributor ? 'CONTRIBUTOR' : seat;
}

/** The seat fields a user and a user plan report alike. */
function seatView(seat: PlanSeat, dates: DateFormat, displayContributor: boolean): UserPlan {
  return {
    planId: seat.planId,
    seatType: wireSeatType(seat.seatType, displayContributor),
    seatTypeLastChangedAt: isoWithFraction(dates, seat.seatTypeLastChangedAt),
    provisionalExpirationDate: seat.provisionalExpirationDate === null ? null : isoWithFraction(dates, seat.provisionalExpirationDate),
    isInternal: seat.isInternal,
  };
}

export function fullName(user: UserRecord): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

export function alternateEmailView(record: AlternateEmailRecord): AlternateEmail {
  return { id: record.id, email: record.email, confirmed: record.confirmed };
}

export function userView(user: UserRecord, options: UserViewOptions): User {
  const view: User = {
    id: user.id,
    email: user.email,
    name: fullName(user),
    firstName: user.firstName,
    lastName: user.lastName,
  };
  if (options.callerIsAdmin) {
    view.admin = user.admin;
    view.licensedSheetCreator = user.licensedSheetCreator;
    view.groupAdmin = user.groupAdmin;
    view.resourceViewer = user.resourceViewer;
    view.status = user.status;
    if (user.status === 'ACTIVE') view.sheetCount = -1;
  }
  const seat = options.planId === undefined ? user.seats[0] : user.seats.find((s) => s.planId === options.planId);
  if (seat !== undefined) Object.assign(view, seatView(seat, options.dates, options.displayContributorSeatType));
  if (options.includeLastLogin === true && user.lastLogin !== null) view.lastLogin = options.dates(user.lastLogin);
  if (user.profileImage !== null) view.profileImage = { ...user.profileImage };
  return view;
}

/** The profile fields get user and get current user carry. */
const PROFILE_FIELDS = ['company', 'department', 'title', 'role', 'workPhone', 'mobilePhone'] as const;

export interface ProfileViewOptions extends UserViewOptions {
  org: OrgRecord;
  /** GET /users/me carries no status (docs/service.md#get-user). */
  isMe: boolean;
  groups?: GroupRecord[];
  userEmail: (id: number) => string | undefined;
}

export function userProfileView(user: UserRecord, options: ProfileViewOptions): UserProfile {
  const base = userView(user, { ...options, callerIsAdmin: options.callerIsAdmin || options.isMe });
  const view: UserProfile = {
    ...base,
    account: { id: options.org.id, name: options.org.name },
    locale: user.locale,
    timeZone: user.timeZone,
    alternateEmails: user.alternateEmails.map(alternateEmailView),
    jiraAdmin: false,
    salesforceAdmin: false,
    salesforceUser: false,
  };
  if (options.isMe) {
    delete view.status;
    view.sheetCount = -1;
  }
  // Always sent, empty when unset, as the SDKs' shared recordings show them (docs/service.md#get-user).
  for (const key of PROFILE_FIELDS) view[key] = user[key] ?? '';
  if (options.groups !== undefined) {
    view.groups = options.groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      owner: options.userEmail(g.ownerId),
      ownerId: g.ownerId,
      createdAt: options.dates(g.createdAt),
      modifiedAt: options.dates(g.modifiedAt),
    }));
  }
  return view;
}

export function userPlanView(seat: PlanSeat, planName: string | undefined, dates: DateFormat, displayContributor: boolean): UserPlan {
  const view: UserPlan = seatView(seat, dates, displayContributor);
  if (planName !== undefined) view.planName = planName;
  return view;
}
