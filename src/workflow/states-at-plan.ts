import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User } from '../contract/index.js';
import { plansOfUser } from '../plan/plans-of-user.js';
import { resolveUsers } from '../plan/resolve-users.js';
import type { StateBefore } from './leaver-state.js';

/**
 * The state of the leavers whose deactivation is due at once, as the plan reads it, in bulk: each of the caller's
 * plans listed for the leavers (`email=` lookups of 100, or full pages, whichever is fewer: resolveUsers), which
 * carries status, admin flags and the seat in that plan. No call per leaver: this is the state before of their
 * deactivation (capture-state-before.ts). The service lists plans per user only, so a seat in a plan the caller holds
 * none in is not seen: a leaver found in none of the caller's plans gets no state here (its step reads it whole), and
 * a seat beside one in the caller's plans goes unrecorded (an undo then restores none there).
 */
export async function readStatesAtPlan(api: SmartsheetApi, leavers: readonly { userId: number; email: string }[], at: Date): Promise<Map<number, StateBefore>> {
  const states = new Map<number, StateBefore>();
  if (leavers.length === 0) return states;
  const me = await api.users.getCurrent();
  const emails = new Set(leavers.map((leaver) => leaver.email.toLowerCase()));
  const listed = new Map<number, User>();
  const seats = new Map<number, StateBefore['seats']>();
  for (const plan of await plansOfUser(api, me.id)) {
    const found = await resolveUsers(api, emails, new Set(), { planId: plan.planId });
    for (const user of found.byId.values()) {
      if (!listed.has(user.id)) listed.set(user.id, user);
      const seat = { planId: plan.planId, ...(plan.planName === undefined ? {} : { planName: plan.planName }), ...(user.seatType === undefined ? {} : { seatType: user.seatType }) };
      seats.set(user.id, [...(seats.get(user.id) ?? []), seat]);
    }
  }
  for (const { userId } of leavers) {
    const user = listed.get(userId);
    if (user === undefined) continue;
    states.set(userId, {
      recordedAt: at.toISOString(),
      ...(user.status === undefined ? {} : { status: user.status }),
      ...(user.admin === undefined ? {} : { admin: user.admin }),
      ...(user.groupAdmin === undefined ? {} : { groupAdmin: user.groupAdmin }),
      ...(user.licensedSheetCreator === undefined ? {} : { licensedSheetCreator: user.licensedSheetCreator }),
      ...(user.resourceViewer === undefined ? {} : { resourceViewer: user.resourceViewer }),
      seats: seats.get(userId) ?? [],
    });
  }
  return states;
}
