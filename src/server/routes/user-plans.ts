import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { pathId, queryBool, queryIncludes, queryInt, queryString } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { checkDowngrade, checkUpgrade, type SeatChange } from '../rules/seat-change.js';
import type { PlanSeat, UserRecord } from '../state/records.js';
import { userPlanView } from '../state/user-views.js';
import { bodyBool, bodyObject, pastViewerSunset, reportsContributor, requireUser, success } from './route-helpers.js';

/** `PLAN_NAME`, `planName` and `planNames`, any case (docs/service.md#user-plans). */
const PLAN_NAME_INCLUDES = ['plan_name', 'planname', 'plannames'];
const MIN_MAX_ITEMS = 100;

function requireSeat(ctx: RouteContext): { user: UserRecord; seat: PlanSeat } {
  const user = requireUser(ctx);
  const planId = pathId(ctx.params.planId);
  if (!ctx.server.state.plans.has(planId)) throw ApiError.notFound('Plan not found.');
  const seat = user.seats.find((s) => s.planId === planId);
  if (seat === undefined) throw ApiError.notFound(`User ${user.id} is not in plan ${planId}.`);
  return { user, seat };
}

function listPlans(ctx: RouteContext): unknown {
  const { state, planNames } = ctx.server;
  const user = requireUser(ctx);
  const includes = queryIncludes(ctx.query);
  const withNames = PLAN_NAME_INCLUDES.some((name) => includes.has(name));
  const contributor = reportsContributor(ctx);
  // "default and minimum are 100" (developer docs, list-user-plans): a smaller maxItems counts as 100.
  const maxItems = Math.max(MIN_MAX_ITEMS, queryInt(ctx.query, 'maxItems') ?? MIN_MAX_ITEMS);
  const lastKey = queryString(ctx.query, 'lastKey');
  let start = 0;
  if (lastKey !== undefined) {
    const decoded = Number(Buffer.from(lastKey, 'base64url').toString('utf8'));
    if (!Number.isSafeInteger(decoded) || decoded < 0) throw ApiError.badRequest(CODES.invalidParameterValue, 'Invalid lastKey.');
    start = decoded;
  }
  const page = user.seats.slice(start, start + maxItems);
  const data = page.map((seat) => {
    const plan = state.plans.get(seat.planId);
    return userPlanView(seat, withNames && plan !== undefined ? planNames.get(plan) : undefined, ctx.dates, contributor);
  });
  const next = start + page.length;
  return next < user.seats.length ? { lastKey: Buffer.from(String(next)).toString('base64url'), data } : { data };
}

function applySeatChange(ctx: RouteContext, user: UserRecord, seat: PlanSeat, change: SeatChange, operation: string): unknown {
  if (!change.changed) return success();
  const before = seat.seatType;
  seat.seatType = change.target;
  seat.seatTypeLastChangedAt = ctx.server.clock.now();
  seat.provisionalExpirationDate = null;
  if (change.clearAdmin) user.admin = false;
  ctx.server.mutations.record({
    operation,
    resourceType: 'user',
    resourceId: user.id,
    userId: user.id,
    summary: `${user.email} in plan ${seat.planId}: ${before} → ${change.target}${change.clearAdmin ? ', admin removed' : ''}`,
  });
  ctx.server.events.seatChanged(user, [seat.planId]);
  return success();
}

function downgrade(ctx: RouteContext): unknown {
  const { user, seat } = requireSeat(ctx);
  const body = bodyObject(ctx);
  const removeAdmin = queryBool(ctx.query, 'removeAdminStatus') ?? bodyBool(body, 'removeAdminStatus') ?? false;
  return applySeatChange(ctx, user, seat, checkDowngrade(user, seat, body.seatType ?? queryString(ctx.query, 'seatType'), removeAdmin, pastViewerSunset(ctx)), 'downgradeUser');
}

function upgrade(ctx: RouteContext): unknown {
  const { user, seat } = requireSeat(ctx);
  const body = bodyObject(ctx);
  return applySeatChange(ctx, user, seat, checkUpgrade(user, seat, body.seatType ?? queryString(ctx.query, 'seatType')), 'upgradeUser');
}

function removeFromPlan(ctx: RouteContext): unknown {
  const { state, mutations } = ctx.server;
  const { user, seat } = requireSeat(ctx);
  ctx.server.events.user('removed', user, [seat.planId]);
  user.seats = user.seats.filter((s) => s !== seat);
  // Removing from a plan drops access to what is shared within it: sheets owned by the plan's members.
  let unshared = 0;
  for (const sheet of state.sheets.values()) {
    const owner = state.users.get(sheet.ownerId);
    if (owner?.seats.some((s) => s.planId === seat.planId) === true && sheet.sharing[String(user.id)] !== undefined) {
      delete sheet.sharing[String(user.id)];
      unshared += 1;
    }
  }
  mutations.record({
    operation: 'removeUserFromPlan',
    resourceType: 'user',
    resourceId: user.id,
    userId: user.id,
    summary: `removed ${user.email} from plan ${seat.planId}; unshared from ${unshared} sheets`,
  });
  return success();
}

export const userPlanRoutes: RouteDef[] = [
  { method: 'GET', path: '/users/:userId/plans', operation: 'listUserPlans', adminOnly: true, handle: listPlans },
  { method: 'DELETE', path: '/users/:userId/plans/:planId', operation: 'removeUserFromPlan', adminOnly: true, handle: removeFromPlan },
  { method: 'POST', path: '/users/:userId/plans/:planId/downgrade', operation: 'downgradeUser', adminOnly: true, handle: downgrade },
  { method: 'POST', path: '/users/:userId/plans/:planId/upgrade', operation: 'upgradeUser', adminOnly: true, handle: upgrade },
];
