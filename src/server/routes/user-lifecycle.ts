import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { pathId } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { checkDeactivate, checkReactivate } from '../rules/lifecycle-eligibility.js';
import { assignMemberSeats, describeMoves, takeMemberSeats } from '../rules/seat-lifecycle.js';
import { requireUser, success } from './route-helpers.js';

/** Smartsheet Gov offers neither deactivate nor reactivate (docs/service.md#regions). */
function refuseOnGov(ctx: RouteContext, verb: 'deactivate' | 'reactivate'): void {
  if (ctx.server.settings.gov) throw ApiError.refused(CODES.unavailableOnGov, `Smartsheet Gov does not offer ${verb} user.`);
}

/** Seats follow the lifecycle (docs/service.md#seats-follow-the-lifecycle): deactivation takes the Member seat away. */
function deactivate(ctx: RouteContext): unknown {
  refuseOnGov(ctx, 'deactivate');
  const { state, clock, mutations } = ctx.server;
  const user = requireUser(ctx);
  if (checkDeactivate(state, user, ctx.principal.user.id)) {
    const now = clock.now();
    user.status = 'DEACTIVATED';
    user.deactivatedAt = now;
    const moves = takeMemberSeats(user, now);
    mutations.record({
      operation: 'deactivateUser',
      resourceType: 'user',
      resourceId: user.id,
      userId: user.id,
      summary: `deactivated ${user.email}${describeMoves(moves)}`,
    });
    ctx.server.events.user('deactivated', user, user.seats.map((s) => s.planId));
    ctx.server.events.seatChanged(user, moves.map((move) => move.planId));
  }
  return success();
}

/** Reactivation assigns a Member seat (docs/service.md#seats-follow-the-lifecycle): an undo can cost a paid seat. */
function reactivate(ctx: RouteContext): unknown {
  refuseOnGov(ctx, 'reactivate');
  const { state, clock, mutations, settings } = ctx.server;
  // A removed user is "not in the organization": a refusal (403/1354), not 404 (docs/service.md#refusal-codes).
  const user = state.users.get(pathId(ctx.params.userId));
  const target = user !== undefined && !user.inOrg ? user : requireUser(ctx);
  if (checkReactivate(state, target, ctx.principal.user.id, clock.now(), settings.reactivationWindowMs)) {
    target.status = 'ACTIVE';
    target.deactivatedAt = null;
    const moves = assignMemberSeats(target, clock.now());
    mutations.record({
      operation: 'reactivateUser',
      resourceType: 'user',
      resourceId: target.id,
      userId: target.id,
      summary: `reactivated ${target.email}${describeMoves(moves)}`,
    });
    ctx.server.events.user('reactivated', target, target.seats.map((s) => s.planId));
    ctx.server.events.seatChanged(target, moves.map((move) => move.planId));
  }
  return success();
}

export const userLifecycleRoutes: RouteDef[] = [
  { method: 'POST', path: '/users/:userId/deactivate', operation: 'deactivateUser', adminOnly: true, handle: deactivate },
  { method: 'POST', path: '/users/:userId/reactivate', operation: 'reactivateUser', adminOnly: true, handle: reactivate },
];
