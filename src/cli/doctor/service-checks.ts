import { isApiError } from '../../client/api-error.js';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import type { UserProfile } from '../../contract/user.js';
import { fail, ok, warn, type DoctorCheck } from './doctor-check.js';
import type { ServiceRegion } from '../../contract/service-regions.js';
import { describeTarget } from './service-region.js';

/** A clock off by more than this makes leave dates and holds land early or late by that much. */
const CLOCK_WARN_MS = 60_000;
const CLOCK_FAIL_MS = 3_600_000;

export interface ServiceCheckInput {
  baseUrl: string;
  /** The target's region (config api.region, else from the base URL); undefined for another host. */
  region: ServiceRegion | undefined;
  /** Undefined when no token is configured. */
  api: SmartsheetApi | undefined;
  /** The Date header of the last answer, with the time we received it (the client's onResponse hook fills it). */
  lastDate(): { serviceMs: number; receivedAt: number } | undefined;
}

/** The token (valid, System Admin, organization) and the target (region, reachable, its clock against ours). */
export async function checkService(input: ServiceCheckInput): Promise<DoctorCheck[]> {
  const region = describeTarget(input.baseUrl, input.region);
  if (input.api === undefined) {
    return [
      fail('token', 'no access token: SMARTSHEET_ACCESS_TOKEN is not set', 'Set SMARTSHEET_ACCESS_TOKEN to a System Admin’s API token (Account › Apps & Integrations › API access).', 2),
      warn('target', `${input.baseUrl} (${region}): not called without a token`, 'Set the token, then run seatflow doctor again.'),
    ];
  }
  let me: UserProfile;
  try {
    me = await input.api.users.getCurrent();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isApiError(error) && error.category === 'Authorization') {
      return [
        fail('token', `the service refused the token: ${message}`, `Check SMARTSHEET_ACCESS_TOKEN, and that SMARTSHEET_API_BASE is the token’s region (this is ${region}; EU, Gov and AU have their own).`, 2),
        clockCheck(input, region),
      ];
    }
    return [
      warn('token', 'not checked: the target did not answer', 'See the target line.'),
      fail('target', `${input.baseUrl} (${region}) did not answer: ${message}`, 'Check SMARTSHEET_API_BASE (it ends in /2.0), the network and any proxy between here and the service.'),
    ];
  }
  const who = `${me.email}${me.account === undefined ? '' : `, organization ${me.account.name} (account ${me.account.id})`}`;
  const details = { email: me.email, userId: me.id, admin: me.admin === true, organization: me.account?.name, accountId: me.account?.id };
  const token =
    me.admin === true
      ? ok('token', `valid, System Admin: ${who}`, details)
      : fail('token', `valid, but not a System Admin: ${who}`, 'Lifecycle changes need a System Admin’s token: create one as a System Admin of the organization.', 2, details);
  return [token, clockCheck(input, region)];
}

function clockCheck(input: ServiceCheckInput, region: string): DoctorCheck {
  const seen = input.lastDate();
  const serviceMs = seen === undefined ? Number.NaN : seen.serviceMs;
  const where = `${input.baseUrl} (${region})`;
  const gov = input.region === 'GOV' ? ' Smartsheet Gov offers no deactivate or reactivate: offboarding there cannot deactivate.' : '';
  if (seen === undefined || Number.isNaN(serviceMs)) {
    return warn('target', `${where} answers, without a Date header to compare clocks`, `Check this machine’s clock is synchronised (NTP).${gov}`, { region });
  }
  // The Date header has whole seconds: up to a second of difference is the header's, not the clocks'.
  const skewMs = seen.receivedAt - serviceMs;
  const skew = `this machine's clock is ${formatSkew(skewMs)} the service's`;
  const details = { region, skewMs };
  if (Math.abs(skewMs) > CLOCK_FAIL_MS) return fail('target', `${where}: ${skew}`, 'Synchronise this machine’s clock (NTP): leave dates, holds and schedules run by it.', 1, details);
  if (Math.abs(skewMs) > CLOCK_WARN_MS) return warn('target', `${where}: ${skew}`, 'Synchronise this machine’s clock (NTP): leave dates, holds and schedules run by it.', details);
  if (gov !== '') return warn('target', `${where} answers; ${skew}.${gov}`, 'Offboard on Gov by removal only, or ask Smartsheet support.', details);
  return ok('target', `${where} answers; ${skew}`, details);
}

function formatSkew(skewMs: number): string {
  const seconds = Math.abs(skewMs) / 1000;
  if (seconds <= 1) return 'within a second of';
  const amount = seconds < 120 ? `${seconds.toFixed(0)} s` : seconds < 7200 ? `${(seconds / 60).toFixed(0)} min` : `${(seconds / 3600).toFixed(1)} h`;
  return `${amount} ${skewMs > 0 ? 'ahead of' : 'behind'}`;
}
