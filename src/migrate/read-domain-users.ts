import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { emailDomain, LIST_USERS_MAX_PAGE_SIZE, type AlternateEmail, type User } from '../contract/index.js';
import { forEachLimited } from '../core/for-each-limited.js';
import { countCalls, isNotFound } from '../plan/count-calls.js';
import { resolveUsers } from '../plan/resolve-users.js';
import { newAddressOf, type DomainMigrationRequest } from './domain-migration-request.js';

/** One user the migration is about: found on the old domain, or listed (and then perhaps not found). */
export interface DomainCandidate {
  /** The address as listed, or the user's primary address on the old domain. */
  email: string;
  /** The user whose primary address is `email`, or (listed, already migrated) whose primary is the new address. */
  user?: User;
  newEmail: string;
}

/** What the plan of a domain migration reads of the live organization. */
export interface DomainUsersRead {
  caller: { id: number; email: string };
  candidates: DomainCandidate[];
  /** userId → alternate addresses, for every candidate found. */
  alternates: Map<number, AlternateEmail[]>;
  /** Users by primary address (lower-case), for every address the plan asks about (the new ones among them). */
  usersByEmail: Map<string, User>;
  /** Users in the organization (for the guardrails' share). */
  organizationUsers?: number;
  apiCalls: number;
}

/** GET alternate e-mails calls in flight at once; the shared request budget paces them anyway. */
const CONCURRENCY = 4;

/**
 * The live read of a domain migration: the users on the old domain (one listing of the organization, 2000 a page) or
 * the listed ones (`email=` lookups, 100 a call, the new addresses with them), then each one's alternate addresses
 * (one call each: the listing carries none, docs/service.md#list-users). Changes nothing.
 */
export async function readDomainUsers(source: SmartsheetApi, request: DomainMigrationRequest): Promise<DomainUsersRead> {
  const { api, calls } = countCalls(source);
  const me = await api.users.getCurrent();
  const usersByEmail = new Map<string, User>();
  let organizationUsers: number | undefined;
  let candidates: DomainCandidate[];
  if (request.users === undefined) {
    let listed = 0;
    for await (const user of api.users.list({ pageSize: LIST_USERS_MAX_PAGE_SIZE })) {
      usersByEmail.set(user.email.toLowerCase(), user);
      listed += 1;
    }
    organizationUsers = listed;
    candidates = [...usersByEmail.values()]
      .filter((user) => emailDomain(user.email) === request.from)
      .sort((a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()))
      .map((user) => ({ email: user.email.toLowerCase(), user, newEmail: newAddressOf(user.email, request.to) }));
  } else {
    const wanted = new Set(request.users.flatMap((email) => [email, newAddressOf(email, request.to)]));
    const found = await resolveUsers(api, wanted, new Set());
    for (const [email, user] of found.byEmail) usersByEmail.set(email, user);
    organizationUsers = found.organizationSize;
    candidates = request.users.map((email) => {
      const newEmail = newAddressOf(email, request.to);
      // Someone listed by their old address who was migrated already is found by the new one.
      const user = usersByEmail.get(email) ?? usersByEmail.get(newEmail);
      return { email, newEmail, ...(user === undefined ? {} : { user }) };
    });
  }
  const alternates = await readAlternatesOf(api, candidates.flatMap((candidate) => (candidate.user === undefined ? [] : [candidate.user.id])));
  return { caller: { id: me.id, email: me.email.toLowerCase() }, candidates, alternates, usersByEmail, ...(organizationUsers === undefined ? {} : { organizationUsers }), apiCalls: calls() };
}

async function readAlternatesOf(api: SmartsheetApi, userIds: readonly number[]): Promise<Map<number, AlternateEmail[]>> {
  const alternates = new Map<number, AlternateEmail[]>();
  await forEachLimited(userIds, CONCURRENCY, async (userId) => {
    try {
      alternates.set(userId, (await api.alternateEmails.listPage(userId, { includeAll: true })).data);
    } catch (error) {
      // Gone since the listing: the plan says so for that user.
      if (!isNotFound(error)) throw error;
    }
  });
  return alternates;
}
