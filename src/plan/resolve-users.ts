import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User } from '../contract/index.js';
import { LIST_USERS_MAX_PAGE_SIZE } from '../contract/index.js';
import { isNotFound } from './count-calls.js';

export interface ResolveUsersOptions {
  /** E-mails per `email=` filter call. Default 100. */
  emailBatchSize?: number;
  /** Page size of a full listing. Default and at most 2000, the service's cap (docs/service.md#paging-list-users). */
  fullPageSize?: number;
  /** Only users holding a seat in this plan (the listing then reports that plan's seat). */
  planId?: number;
  /** Report VIEWER seats as CONTRIBUTOR (docs/service.md#seat-types). Default false. */
  displayContributorSeatType?: boolean;
}

export interface ResolvedUsers {
  byEmail: Map<string, User>;
  byId: Map<number, User>;
  /** Users in the organization, when a listing reported it. */
  organizationSize?: number;
  strategy: 'email-batches' | 'full-listing' | 'none';
}

/**
 * Finds the users named by e-mail or id with as few calls as possible: `email=` filters, `emailBatchSize` at a time,
 * or one full listing when the names cover enough of the organization that paging through it is cheaper (ids can
 * only be matched by a listing, or one get per id). A first page of the full listing tells the organization's size,
 * so the choice costs nothing when the listing wins and one call when it does not.
 */
export async function resolveUsers(api: SmartsheetApi, emails: Iterable<string> & { readonly size: number }, ids: ReadonlySet<number>, options: ResolveUsersOptions = {}): Promise<ResolvedUsers> {
  const batchSize = options.emailBatchSize ?? 100;
  // GET /users answers at most 2000 a page (400/1229 above): page within the cap for any organization size.
  const fullPageSize = Math.min(options.fullPageSize ?? LIST_USERS_MAX_PAGE_SIZE, LIST_USERS_MAX_PAGE_SIZE);
  const emailPageSize = Math.min(batchSize, LIST_USERS_MAX_PAGE_SIZE);
  const listing = {
    ...(options.planId === undefined ? {} : { planId: options.planId }),
    ...(options.displayContributorSeatType === true ? { displayContributorSeatType: true } : {}),
  };
  const result: ResolvedUsers = { byEmail: new Map(), byId: new Map(), strategy: 'none' };
  const keep = (user: User) => {
    result.byEmail.set(user.email.toLowerCase(), user);
    result.byId.set(user.id, user);
  };
  if (emails.size === 0 && ids.size === 0) return result;

  const batchCost = Math.ceil(emails.size / batchSize) + ids.size;
  if (batchCost > 1) {
    // Reading the first page of the full listing is worth it only when the batches would cost more than one call.
    const first = await api.users.listPage({ ...listing, page: 1, pageSize: fullPageSize });
    result.organizationSize = options.planId === undefined ? first.totalCount : undefined;
    const fullCost = Math.max(1, first.totalPages);
    if (fullCost <= batchCost) {
      result.strategy = 'full-listing';
      first.data.forEach(keep);
      for (let page = 2; page <= first.totalPages; page += 1) {
        (await api.users.listPage({ ...listing, page, pageSize: fullPageSize })).data.forEach(keep);
      }
      return result;
    }
  }
  result.strategy = 'email-batches';
  const all = [...emails];
  for (let at = 0; at < all.length; at += batchSize) {
    const batch = all.slice(at, at + batchSize);
    let page = 1;
    for (;;) {
      const answer = await api.users.listPage({ ...listing, email: batch, page, pageSize: emailPageSize });
      answer.data.forEach(keep);
      if (page >= answer.totalPages) break;
      page += 1;
    }
  }
  for (const id of ids) {
    if (result.byId.has(id)) continue;
    try {
      const user = await api.users.get(id);
      // A plan-filtered resolution must not learn seats from a get (which reports the first plan).
      if (options.planId === undefined || user.planId === options.planId) keep(user);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return result;
}
