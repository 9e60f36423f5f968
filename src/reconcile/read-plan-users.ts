import { iterateOffsetPages } from '../client/paging.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE, type User } from '../contract/index.js';
import { UsageError } from '../core/seatflow-error.js';
import { countCalls } from '../plan/count-calls.js';
import { plansOfUser } from '../plan/plans-of-user.js';

export interface PlanUsers {
  planId: number;
  /** Every user holding a seat in the plan, with that plan's seat, lastLogin and seatTypeLastChangedAt. */
  users: User[];
  caller: { id: number; email: string };
  /** HTTP calls spent: one per 100 users, plus who-am-I (and the caller's plans when the policy names none). */
  apiCalls: number;
}

/**
 * Reads the live seats of one plan as cheaply as the service allows: list users filtered by plan with
 * include=lastLogin, 100 per page (one call per 100 users). Pass a client on the shared request budget. With
 * `emails`, only those users (a drift's reconciliation): the same filters and an e-mail filter, a call per 100.
 */
export async function readPlanUsers(source: SmartsheetApi, planId: number | undefined, emails?: readonly string[]): Promise<PlanUsers> {
  const { api, calls } = countCalls(source);
  const me = await api.users.getCurrent();
  const plan = planId ?? (await onlyPlanOf(api, me.id));
  const users: User[] = [];
  const pageSize = LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE;
  const only = emails === undefined ? {} : { email: [...emails] };
  const pages = iterateOffsetPages((page) => api.users.listPage({ ...only, planId: plan, include: ['lastLogin'], displayContributorSeatType: true, page, pageSize }), { pageSize });
  for await (const user of pages) users.push(user);
  return { planId: plan, users, caller: { id: me.id, email: me.email.toLowerCase() }, apiCalls: calls() };
}

/**
 * A policy without planId means "the only plan". The API lists plans per user, so the plans of the admin running
 * seatflow stand for the organization's: one plan there is taken, several are refused.
 */
async function onlyPlanOf(api: SmartsheetApi, userId: number): Promise<number> {
  const plans = await plansOfUser(api, userId);
  const only = plans[0];
  if (plans.length === 1 && only !== undefined) return only.planId;
  throw new UsageError(
    `the policy names no planId and the organization has ${plans.length === 0 ? 'no plan visible to this token' : `${plans.length} plans (${plans.map((p) => p.planId).join(', ')})`}`,
    'Add "planId" to the policy.',
  );
}
