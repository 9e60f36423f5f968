import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User } from '../contract/index.js';

/** The organization's user at this address now (`email=`, one call), or undefined: `email` as people keep it, lower case. */
export async function userByEmail(api: SmartsheetApi, email: string, signal?: AbortSignal): Promise<User | undefined> {
  const page = await api.users.listPage({ email: [email], ...(signal === undefined ? {} : { signal }) });
  return page.data.find((user) => user.email.toLowerCase() === email);
}

/** Whether a person's user has left the organization: none at their address now, or another user than theirs. */
export async function leftOrganization(api: SmartsheetApi, person: { email: string; userId?: number | undefined }, signal?: AbortSignal): Promise<boolean> {
  const user = await userByEmail(api, person.email, signal);
  return user === undefined || (person.userId !== undefined && user.id !== person.userId);
}
