import { pathId } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { checkDeactivate, checkReactivate } from '../rules/lifecycle-eligibility.js';
import { requireUser, success } from './route-helpers.js';

function deactivate(ctx: RouteContext): unknown {
  const { state, clock, mutations } = ctx.server;
  const user = requireUser(ctx);
  if (checkDeactivate(state, user, ctx.principal.user.id)) {
    user.status = 'DEACTIVATED';
    user.deactivatedAt = clock.now();
    mutations.record({ operation: 'deactivateUser', resourceType: 'user', resourceId: user.id, userId: user.id, summary: `deactivated ${user.email}` });
  }
  return success();
}

function reactivate(ctx: RouteContext): unknown {
  const { state, clock, mutations, settings } = ctx.server;
  // A removed user is "not in the organization": 400, not 404 (interface.md, reactivate).
  const user = state.users.get(pathId(ctx.params.userId));
  const target = user !== undefined && !user.inOrg ? user : requireUser(ctx);
  if (checkReactivate(state, target, ctx.principal.user.id, clock.now(), settings.reactivationWindowMs)) {
    target.status = 'ACTIVE';
    target.deactivatedAt = null;
    mutations.record({ operation: 'reactivateUser', resourceType: 'user', resourceId: target.id, userId: target.id, summary: `reactivated ${target.email}` });
  }
  return success();
}

export const userLifecycleRoutes: RouteDef[] = [
  { method: 'POST', path: '/users/:userId/deactivate', operation: 'deactivateUser', adminOnly: true, handle: deactivate },
  { method: 'POST', path: '/users/:userId/reactivate', operation: 'reactivateUser', adminOnly: true, handle: reactivate },
];
