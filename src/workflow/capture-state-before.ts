import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { LeaverState, StateBefore } from './leaver-state.js';
import { groupsOwnedBy } from '../plan/group-ownership.js';
import { planReadingStands } from '../plan/plan-reading-stands.js';

export interface CaptureOptions {
  /** Now, on the workflow's clock. */
  at: Date;
  signal?: AbortSignal;
}

/**
 * The user's state just before deactivation, as far as the service tells it: status and admin flags, seat per plan,
 * groups owned (when `include=groups` is answered), sheet count (unless the sunset -1). A leaver whose deactivation
 * was due when the plan read them, and whose step runs within PLAN_READING_STANDS_MS of that reading, keeps the plan's
 * reading (states-at-plan.ts): no call. Anyone else (a later leave date, an offboarding queued long after its plan, a
 * leaver the plan found in none of the caller's plans) is read now: the profile (groups when answered) and the seats
 * (`GET /users/{id}/plans`), which an undo gives back and whose status tells it whether to reactivate. Reads only.
 */
export async function captureStateBefore(api: SmartsheetApi, leaver: LeaverState & { userId: number }, options: CaptureOptions): Promise<StateBefore> {
  const call = options.signal === undefined ? {} : { signal: options.signal };
  const planned = leaver.stateBefore;
  if (planned !== undefined && planReadingStands(Date.parse(planned.recordedAt), leaver.leaveAt, options.at.getTime())) return planned;
  const profile = await api.users.get(leaver.userId, { ...call, include: ['groups'] });
  const seats = await seatsOf(api, leaver.userId, call);
  const groups = groupsOwnedBy(profile);
  return {
    recordedAt: options.at.toISOString(),
    ...(profile.status === undefined ? {} : { status: profile.status }),
    ...(profile.admin === undefined ? {} : { admin: profile.admin }),
    ...(profile.groupAdmin === undefined ? {} : { groupAdmin: profile.groupAdmin }),
    ...(profile.licensedSheetCreator === undefined ? {} : { licensedSheetCreator: profile.licensedSheetCreator }),
    ...(profile.resourceViewer === undefined ? {} : { resourceViewer: profile.resourceViewer }),
    seats,
    ...(groups.known ? { groupsOwned: [...groups.groups] } : {}),
    ...(profile.sheetCount === undefined || profile.sheetCount < 0 ? {} : { sheetCount: profile.sheetCount }),
  };
}

async function seatsOf(api: SmartsheetApi, userId: number, call: { signal?: AbortSignal }): Promise<StateBefore['seats']> {
  const seats: StateBefore['seats'] = [];
  for await (const plan of api.users.listPlans(userId, { ...call, includePlanName: true })) {
    seats.push({ planId: plan.planId, ...(plan.planName === undefined ? {} : { planName: plan.planName }), ...(plan.seatType === undefined ? {} : { seatType: plan.seatType }), ...(plan.isInternal === undefined ? {} : { isInternal: plan.isInternal }) });
  }
  return seats;
}
