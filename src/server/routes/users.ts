import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { isSystemAdmin } from '../http/authenticate.js';
import { paginate, readCappedPaging, type PageRequest } from '../http/paging.js';
import { LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE, LIST_USERS_MAX_PAGE_SIZE } from '../../contract/index.js';
import { noteProvisionalSeat } from '../rules/provisional-expiry.js';
import { queryBool, queryIncludes, queryInt, queryList, queryString } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { domainMatches } from '../../contract/index.js';
import { EMAIL_ADDRESS } from '../rules/email-domains.js';
import type { UserRecord } from '../state/records.js';
import { addUser, findUserByEmail } from '../state/server-state.js';
import { userProfileView, userView } from '../state/user-views.js';
import { bodyBool, bodyObject, bodyString, pastViewerSunset, reportsContributor, requireUser, success } from './route-helpers.js';
import { removeUser } from './remove-user.js';

/** The seatType filter; VIEWER is refused past its sunset (docs/service.md#seat-types), CONTRIBUTOR always means that seat. */
function seatFilter(ctx: RouteContext): string | undefined {
  const seat = queryString(ctx.query, 'seatType')?.toUpperCase();
  if (seat === 'VIEWER' && pastViewerSunset(ctx)) {
    throw ApiError.badRequest(CODES.invalidParameterValue, 'Invalid value for parameter seatType: VIEWER was retired; use CONTRIBUTOR.');
  }
  return seat === 'CONTRIBUTOR' ? 'VIEWER' : seat;
}

/** Whether the page asked for holds at most `limit` users: its pageSize, or for includeAll what it answers. */
function pageHoldsAtMost(paging: PageRequest, askedAll: boolean, matching: number, limit: number): boolean {
  return (askedAll ? Math.min(matching, paging.pageSize) : paging.pageSize) <= limit;
}

/** List users: `email=` filters are index lookups, so ~100 addresses cost ~100 map reads, not a scan. */
function listUsers(ctx: RouteContext): unknown {
  const { state } = ctx.server;
  const emails = queryList(ctx.query, 'email');
  const planId = queryInt(ctx.query, 'planId');
  const seatType = seatFilter(ctx);
  let users: UserRecord[];
  if (emails.length > 0) {
    const seen = new Set<number>();
    users = [];
    for (const email of emails) {
      const user = findUserByEmail(state, email);
      if (user !== undefined && user.inOrg && !seen.has(user.id)) {
        seen.add(user.id);
        users.push(user);
      }
    }
  } else {
    users = [...state.users.values()].filter((u) => u.inOrg);
  }
  if (planId !== undefined || seatType !== undefined) {
    users = users.filter((u) =>
      u.seats.some((s) => (planId === undefined || s.planId === planId) && (seatType === undefined || s.seatType === seatType)),
    );
  }
  // At most 2000 a page: a larger pageSize is 400/1229, includeAll is page 1 of 2000 (docs/service.md#paging-list-users).
  const paging = readCappedPaging(ctx.query, LIST_USERS_MAX_PAGE_SIZE);
  const viewOptions = {
    dates: ctx.dates,
    callerIsAdmin: isSystemAdmin(ctx.principal),
    displayContributorSeatType: reportsContributor(ctx),
    ...(planId === undefined ? {} : { planId }),
    includeLastLogin: queryIncludes(ctx.query).has('lastlogin') && pageHoldsAtMost(paging, queryBool(ctx.query, 'includeAll') ?? false, users.length, LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE),
  };
  return paginate(users, paging, (u) => userView(u, viewOptions));
}

function profile(ctx: RouteContext, user: UserRecord, isMe: boolean): unknown {
  const { state } = ctx.server;
  const withGroups = queryIncludes(ctx.query).has('groups');
  const callerIsAdmin = isSystemAdmin(ctx.principal);
  return userProfileView(user, {
    dates: ctx.dates,
    callerIsAdmin,
    // GET /users/{id} and GET /users/me carry lastLogin for a System Admin caller without any include
    // (docs/service.md#get-user).
    includeLastLogin: callerIsAdmin,
    displayContributorSeatType: reportsContributor(ctx),
    org: state.org,
    isMe,
    ...(withGroups ? { groups: [...state.groups.values()].filter((g) => g.memberIds.includes(user.id) || g.ownerId === user.id) } : {}),
    userEmail: (id) => state.users.get(id)?.email,
  });
}

function addUserRoute(ctx: RouteContext): unknown {
  const { state, clock } = ctx.server;
  const body = bodyObject(ctx);
  const email = bodyString(body, 'email')?.trim();
  if (email === undefined || email === '') {
    throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: email');
  }
  if (!EMAIL_ADDRESS.test(email)) throw ApiError.badRequest(CODES.invalidEmail, `Invalid email address: ${email}`);
  const existing = findUserByEmail(state, email);
  if (existing?.inOrg === true) {
    throw ApiError.refused(CODES.userAlreadyMember, 'The user specified is already a member of your organization.');
  }
  const now = clock.now();
  const plan = [...state.plans.values()].find((p) => domainMatches(email, p.domains)) ?? [...state.plans.values()][0];
  if (plan === undefined) throw new ApiError(500, CODES.unexpected, 'The organization has no plan.');
  const internal = domainMatches(email, plan.domains);
  const admin = bodyBool(body, 'admin') ?? false;
  // The body's licensedSheetCreator is read (a bad value is still 400) but a user-subscription plan sets it true.
  bodyBool(body, 'licensedSheetCreator');
  const user: UserRecord = existing ?? {
    id: state.ids.next(),
    email,
    firstName: '',
    lastName: '',
    admin: false,
    licensedSheetCreator: false,
    groupAdmin: false,
    resourceViewer: false,
    status: 'PENDING',
    externallyManaged: false,
    externalSource: null,
    inOrg: true,
    deactivatedAt: null,
    lastLogin: null,
    createdAt: now,
    seats: [],
    alternateEmails: [],
    profileImage: null,
    locale: 'en_US',
    timeZone: 'US/Pacific',
  };
  user.inOrg = true;
  user.firstName = bodyString(body, 'firstName') ?? user.firstName;
  user.lastName = bodyString(body, 'lastName') ?? user.lastName;
  user.admin = admin;
  user.licensedSheetCreator = true;
  user.groupAdmin = bodyBool(body, 'groupAdmin') ?? false;
  user.resourceViewer = bodyBool(body, 'resourceViewer') ?? false;
  // Auto-provisioning: a user on a validated domain joins directly; others are invited and stay PENDING.
  user.status = internal ? 'ACTIVE' : 'PENDING';
  // Add user on a user-subscription plan allocates a seat (docs/service.md#add-user): a System Admin a Member seat,
  // anyone else a Provisional Member seat that drops to a free seat at the end of the review period unless upgraded.
  const provisionalUntil = admin ? null : now + ctx.server.settings.provisionalReviewMs;
  user.seats = [
    { planId: plan.id, seatType: admin ? 'MEMBER' : 'PROVISIONAL_MEMBER', seatTypeLastChangedAt: now, provisionalExpirationDate: provisionalUntil, isInternal: internal },
  ];
  if (provisionalUntil !== null) noteProvisionalSeat(state, provisionalUntil);
  addUser(state, user);
  ctx.server.mutations.record({
    operation: 'addUser',
    resourceType: 'user',
    resourceId: user.id,
    userId: user.id,
    summary: `added ${user.email} (${user.status}, ${user.seats[0]?.seatType})`,
  });
  // Adding allocates a seat (docs/service.md#add-user): the plan hears of the user and of the seat.
  ctx.server.events.user('added', user, user.seats.map((s) => s.planId));
  ctx.server.events.seatChanged(user, user.seats.map((s) => s.planId));
  return success(userView(user, { dates: ctx.dates, callerIsAdmin: true, displayContributorSeatType: reportsContributor(ctx) }));
}

function updateUser(ctx: RouteContext): unknown {
  const user = requireUser(ctx);
  const body = bodyObject(ctx);
  const next = {
    firstName: bodyString(body, 'firstName') ?? user.firstName,
    lastName: bodyString(body, 'lastName') ?? user.lastName,
    admin: bodyBool(body, 'admin') ?? user.admin,
    licensedSheetCreator: bodyBool(body, 'licensedSheetCreator') ?? user.licensedSheetCreator,
    groupAdmin: bodyBool(body, 'groupAdmin') ?? user.groupAdmin,
    resourceViewer: bodyBool(body, 'resourceViewer') ?? user.resourceViewer,
  };
  // On a user-subscription plan only a System Admin's licensedSheetCreator can change (docs/service.md#update-user);
  // a row that makes the user an admin in the same call counts as one.
  if (next.licensedSheetCreator !== user.licensedSheetCreator && !user.admin && !next.admin) {
    throw ApiError.refused(
      CODES.licensedSheetCreatorAdminOnly,
      `licensedSheetCreator can be changed only for a System Admin; user ${user.id} is not one.`,
    );
  }
  if (user.id === ctx.principal.user.id && user.admin && !next.admin) {
    throw new ApiError(403, 1049, 'You cannot remove your own admin rights.');
  }
  if (!next.licensedSheetCreator && next.resourceViewer) {
    throw new ApiError(403, 1097, 'A resource viewer must be a licensed user.');
  }
  if (!next.licensedSheetCreator && next.groupAdmin) {
    throw new ApiError(403, 1102, 'A group admin must be a licensed user.');
  }
  const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== user[k]);
  Object.assign(user, next);
  if (changed.length > 0) {
    ctx.server.mutations.record({
      operation: 'updateUser',
      resourceType: 'user',
      resourceId: user.id,
      userId: user.id,
      summary: `updated ${changed.join(', ')} of ${user.email}`,
    });
  }
  return success(userView(user, { dates: ctx.dates, callerIsAdmin: true, displayContributorSeatType: reportsContributor(ctx) }));
}

export const userRoutes: RouteDef[] = [
  { method: 'POST', path: '/users', operation: 'addUser', adminOnly: true, handle: addUserRoute },
  { method: 'GET', path: '/users', operation: 'listUsers', handle: listUsers },
  { method: 'GET', path: '/users/me', operation: 'getCurrentUser', handle: (ctx) => profile(ctx, ctx.principal.user, true) },
  { method: 'GET', path: '/users/:userId', operation: 'getUser', handle: (ctx) => profile(ctx, requireUser(ctx), false) },
  { method: 'PUT', path: '/users/:userId', operation: 'updateUser', adminOnly: true, handle: updateUser },
  { method: 'DELETE', path: '/users/:userId', operation: 'removeUser', adminOnly: true, handle: removeUser },
];
