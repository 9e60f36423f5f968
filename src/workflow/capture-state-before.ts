import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { StateBefore } from './leaver-state.js';
import { groupsOwnedBy } from '../plan/group-ownership.js';

/**
 * The user's state just before deactivation, as far as the service tells it: status and admin flags, seat per plan,
 * groups owned (when `include=groups` is answered), sheet count (unless the sunset -1), alternate e-mails. Reads only.
 */
export async function captureStateBefore(api: SmartsheetApi, userId: number, at: Date, signal?: AbortSignal): Promise<StateBefore> {
  const call = signal === undefined ? {} : { signal };
  const profile = await api.users.get(userId, { ...call, include: ['groups'] });
  const seats: StateBefore['seats'] = [];
  for await (const plan of api.users.listPlans(userId, { ...call, includePlanName: true })) {
    seats.push({ planId: plan.planId, ...(plan.planName === undefined ? {} : { planName: plan.planName }), ...(plan.seatType === undefined ? {} : { seatType: plan.seatType }) });
  }
  const alternateEmails: string[] = [];
  for await (const alternate of api.alternateEmails.list(userId, call)) alternateEmails.push(alternate.email);
  const groups = groupsOwnedBy(profile);
  return {
    recordedAt: at.toISOString(),
    ...(profile.status === undefined ? {} : { status: profile.status }),
    ...(profile.admin === undefined ? {} : { admin: profile.admin }),
    ...(profile.groupAdmin === undefined ? {} : { groupAdmin: profile.groupAdmin }),
    ...(profile.licensedSheetCreator === undefined ? {} : { licensedSheetCreator: profile.licensedSheetCreator }),
    ...(profile.resourceViewer === undefined ? {} : { resourceViewer: profile.resourceViewer }),
    seats,
    ...(groups.known ? { groupsOwned: [...groups.groups] } : {}),
    ...(profile.sheetCount === undefined || profile.sheetCount < 0 ? {} : { sheetCount: profile.sheetCount }),
    alternateEmails,
  };
}
