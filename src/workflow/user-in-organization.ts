import { ResourceNotFoundError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User } from '../contract/index.js';

/** The organization's user at this address now (`email=`, one call), or undefined: `email` as people keep it, lower case. */
export async function userByEmail(api: SmartsheetApi, email: string, signal?: AbortSignal): Promise<User | undefined> {
  const page = await api.users.listPage({ email: [email], ...(signal === undefined ? {} : { signal }) });
  return page.data.find((user) => user.email.toLowerCase() === email);
}

/**
 * Whether a person's user has left the organization (one call). By id when it is known, as the rows' confirming reads
 * look: a user whose address changed since is still there (a retry can settle their row), and one removed is gone
 * even if the address was given to a new user. Without an id: nobody at their address now.
 */
export async function leftOrganization(api: SmartsheetApi, person: { email: string; userId?: number | undefined }, signal?: AbortSignal): Promise<boolean> {
  if (person.userId === undefined) return (await userByEmail(api, person.email, signal)) === undefined;
  try {
    await api.users.get(person.userId, signal === undefined ? {} : { signal });
    return false;
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return true;
    throw error;
  }
}
