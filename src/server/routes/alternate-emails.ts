import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { checkMakePrimary, checkNewAlternates } from '../rules/alternate-email-rules.js';
import { paginate, readPaging } from '../http/paging.js';
import { pathId } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { domainMatches } from '../../contract/index.js';
import type { AlternateEmailRecord, UserRecord } from '../state/records.js';
import { setPrimaryEmail, userPlanDomains } from '../state/server-state.js';
import { alternateEmailView } from '../state/user-views.js';
import { requireUser, success } from './route-helpers.js';


/** An alternate address of the user, or 404: never an empty value (docs/service.md#alternate-e-mails). */
function requireAlternate(ctx: RouteContext, user: UserRecord): AlternateEmailRecord {
  const id = pathId(ctx.params.alternateEmailId);
  const record = user.alternateEmails.find((a) => a.id === id);
  if (record === undefined) throw ApiError.notFound('Alternate email address not found.');
  return record;
}

function readEmails(body: unknown): string[] {
  const items = Array.isArray(body) ? body : body !== null && typeof body === 'object' ? [body] : [];
  if (items.length === 0) throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: email');
  return items.map((item) => {
    const email = (item as { email?: unknown } | null)?.email;
    if (typeof email !== 'string' || email.trim() === '') {
      throw ApiError.badRequest(CODES.requiredAttributeMissing, 'Required object attribute(s) are missing: email');
    }
    return email.trim();
  });
}

function add(ctx: RouteContext): unknown {
  const { state, mutations } = ctx.server;
  const user = requireUser(ctx);
  const emails = readEmails(ctx.body);
  checkNewAlternates(state, user, emails);
  const domains = userPlanDomains(state, user);
  const created = emails.map((email) => {
    // Addresses on a validated domain of the plan count as confirmed; others wait for the user to confirm.
    const record: AlternateEmailRecord = { id: state.ids.next(), email, confirmed: domainMatches(email, domains) };
    user.alternateEmails.push(record);
    mutations.record({ operation: 'addAlternateEmail', resourceType: 'alternateEmail', resourceId: record.id, userId: user.id, summary: `added ${email} to ${user.email}${record.confirmed ? '' : ' (unconfirmed)'}` });
    return alternateEmailView(record);
  });
  return success(created);
}

function remove(ctx: RouteContext): unknown {
  const user = requireUser(ctx);
  const record = requireAlternate(ctx, user);
  user.alternateEmails = user.alternateEmails.filter((a) => a !== record);
  ctx.server.mutations.record({ operation: 'deleteAlternateEmail', resourceType: 'alternateEmail', resourceId: record.id, userId: user.id, summary: `deleted ${record.email} of ${user.email}` });
  return success();
}

function makePrimary(ctx: RouteContext): unknown {
  const { state, mutations } = ctx.server;
  const user = requireUser(ctx);
  const record = requireAlternate(ctx, user);
  checkMakePrimary(state, user, record);
  const oldPrimary = user.email;
  setPrimaryEmail(state, user, record.email);
  // The old primary address stays with the user as a confirmed alternate (it was the address they signed in with).
  record.email = oldPrimary;
  record.confirmed = true;
  mutations.record({ operation: 'makeAlternateEmailPrimary', resourceType: 'user', resourceId: user.id, userId: user.id, summary: `primary ${oldPrimary} → ${user.email}` });
  return success({ id: record.id, email: user.email, confirmed: true });
}

export const alternateEmailRoutes: RouteDef[] = [
  { method: 'POST', path: '/users/:userId/alternateemails', operation: 'addAlternateEmail', adminOnly: true, handle: add },
  {
    method: 'GET',
    path: '/users/:userId/alternateemails',
    operation: 'listAlternateEmails',
    handle: (ctx) => paginate(requireUser(ctx).alternateEmails, readPaging(ctx.query), alternateEmailView),
  },
  {
    method: 'GET',
    path: '/users/:userId/alternateemails/:alternateEmailId',
    operation: 'getAlternateEmail',
    handle: (ctx) => alternateEmailView(requireAlternate(ctx, requireUser(ctx))),
  },
  { method: 'DELETE', path: '/users/:userId/alternateemails/:alternateEmailId', operation: 'deleteAlternateEmail', adminOnly: true, handle: remove },
  { method: 'POST', path: '/users/:userId/alternateemails/:alternateEmailId/makeprimary', operation: 'makeAlternateEmailPrimary', adminOnly: true, handle: makePrimary },
];
