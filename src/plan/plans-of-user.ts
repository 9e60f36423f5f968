import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { UserPlan } from '../contract/index.js';

/**
 * Every plan one user holds a seat in (`GET /users/{id}/plans`, token paged). The service lists plans per user only,
 * so the caller's plans are all seatflow can learn of the organization's plans without a call per user. Follows a
 * page that comes back empty and still carries a lastKey (docs/service.md#reading-leniently).
 */
export async function plansOfUser(api: SmartsheetApi, userId: number): Promise<UserPlan[]> {
  const plans: UserPlan[] = [];
  let lastKey: string | undefined;
  do {
    const page = await api.users.listPlansPage(userId, lastKey === undefined ? {} : { lastKey });
    plans.push(...page.data);
    lastKey = page.lastKey === '' ? undefined : page.lastKey;
  } while (lastKey !== undefined);
  return plans;
}
