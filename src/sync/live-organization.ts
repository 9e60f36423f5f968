import { iterateOffsetPages } from '../client/paging.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { LIST_USERS_MAX_PAGE_SIZE, type User, type UserProfile } from '../contract/index.js';
import { countCalls, isNotFound } from '../plan/count-calls.js';
import { plansOfUser } from '../plan/plans-of-user.js';
import { resolveUsers } from '../plan/resolve-users.js';
import { forEachLimited } from '../core/for-each-limited.js';
import { chunksOf } from './chunks-of.js';
import { LOOKUP_BATCH_SIZE, planLiveRead, type LiveReadLimits, type LiveReadNeeds, type LiveReadPlan } from './live-read-plan.js';
import { seatOf, UNKNOWN, userOf, type LiveSeat, type LiveUser, type OwnedGroup } from './live-user.js';

export interface LiveOrganizationOptions extends LiveReadLimits {
  needs: LiveReadNeeds;
  /** Plans whose seats are read. Default the caller's plans: the service lists plans per user only. */
  planIds?: readonly number[];
  /** GET /users/{id} calls in flight at once, for alternate e-mails. Default 4; the request budget paces them. */
  perUserConcurrency?: number;
}

/** How a finished read went: users the counts promised, users read, users gone before their profile was read. */
export interface LiveReadOutcome {
  expected: number;
  read: number;
  left: number;
  /** The organization changed while it was read (users added or removed): some may be missing or repeated. */
  changedDuringRead: boolean;
}

export interface LiveOrganization {
  caller: { id: number; email: string };
  /** The calls the read will make, counted before it starts. */
  plan: LiveReadPlan;
  /** Every user, streamed: memory stays flat whatever the organization's size. Iterate once. */
  users(): AsyncGenerator<LiveUser, void, undefined>;
  /** HTTP calls made so far, the first counts included. */
  calls(): number;
  /** After `users()` has ended. */
  outcome(): LiveReadOutcome;
}

const displayContributorSeatType = true;

/**
 * Opens a read of the live organization: finds the caller and the plans, counts the users (a few calls), and plans the
 * cheapest reading within the service's paging rules (`planLiveRead`). `users()` then streams every user as a typed
 * record. Used by `seatflow export users` and by `seatflow sync`. Pass a client on the shared request budget.
 */
export async function openLiveOrganization(source: SmartsheetApi, options: LiveOrganizationOptions): Promise<LiveOrganization> {
  const { api, calls } = countCalls(source);
  const { needs } = options;
  const me = await api.users.getCurrent(needs.groupsOwned ? { include: ['groups'] } : {});
  const planIds = !needs.seats ? [] : [...new Set(options.planIds ?? (await plansOfUser(api, me.id)).map((plan) => plan.planId))];
  const organization = (await api.users.listPage({ pageSize: 1 })).totalCount;
  const plans: { planId: number; users: number }[] = [];
  for (const planId of planIds) plans.push({ planId, users: (await api.users.listPage({ planId, pageSize: 1 })).totalCount });
  const plan = planLiveRead({ users: organization, plans }, needs, calls(), options);
  const callerGroups = ownedGroups(me);
  const outcome: LiveReadOutcome = { expected: organization, read: 0, left: 0, changedDuringRead: false };

  async function* users(): AsyncGenerator<LiveUser, void, undefined> {
    const preloaded = new Map<number, Map<number, LiveSeat>>();
    for (const other of plan.secondary) if (other.how === 'preload') preloaded.set(other.planId, await seatsOfPlan(api, other.planId));
    const looked = plan.secondary.filter((other) => other.how === 'lookup').map((other) => other.planId);
    const { pageSize, planId: primaryPlan } = plan.primary;
    const listing = iterateOffsetPages(
      (page) =>
        api.users.listPage({
          ...(primaryPlan === undefined ? {} : { planId: primaryPlan, displayContributorSeatType }),
          ...(plan.lastLoginFrom === 'listing' ? { include: ['lastLogin'] } : {}),
          page,
          pageSize,
        }),
      { pageSize },
    );
    for await (const chunk of chunksOf(listing, LOOKUP_BATCH_SIZE)) {
      const lookups = new Map<number, Map<number, User>>();
      for (const planId of looked) {
        const emails = new Set(chunk.map((user) => user.email.toLowerCase()));
        lookups.set(planId, (await resolveUsers(api, emails, new Set(), { planId, emailBatchSize: LOOKUP_BATCH_SIZE, displayContributorSeatType })).byId);
      }
      const profiles = plan.perUserCalls > 0 ? await profilesOf(api, chunk, options.perUserConcurrency ?? 4) : undefined;
      for (const listed of chunk) {
        const live = userOf(listed);
        for (const planId of planIds) {
          const seat =
            planId === primaryPlan ? seatOf(listed, planId) : (preloaded.get(planId)?.get(listed.id) ?? seatFrom(lookups.get(planId)?.get(listed.id), planId));
          if (seat !== undefined) live.seats.push(seat);
        }
        if (needs.groupsOwned) live.groupsOwned = listed.id === me.id ? callerGroups : UNKNOWN;
        if (profiles !== undefined) {
          const profile = profiles.get(listed.id);
          if (profile === undefined) {
            outcome.left += 1;
            continue;
          }
          live.alternateEmails = profile.alternateEmails ?? [];
          if (plan.lastLoginFrom === 'per-user' && profile.lastLogin !== undefined) live.lastLogin = profile.lastLogin;
        }
        outcome.read += 1;
        yield live;
      }
    }
    outcome.changedDuringRead = outcome.read + outcome.left !== outcome.expected;
  }

  return { caller: { id: me.id, email: me.email.toLowerCase() }, plan, users, calls, outcome: () => ({ ...outcome }) };
}

/** The caller's own groups: documented on GET /users/me only (docs/service.md#get-user). */
function ownedGroups(me: UserProfile): OwnedGroup[] | typeof UNKNOWN {
  if (me.groups === undefined) return UNKNOWN;
  return me.groups.filter((group) => group.ownerId === me.id).map((group) => ({ id: group.id, name: group.name }));
}

function seatFrom(user: User | undefined, planId: number): LiveSeat | undefined {
  return user === undefined ? undefined : seatOf(user, planId);
}

/** Every seat of one plan, by user id: for plans small enough to hold (`preloadSeats`). */
async function seatsOfPlan(api: SmartsheetApi, planId: number): Promise<Map<number, LiveSeat>> {
  const seats = new Map<number, LiveSeat>();
  const pageSize = LIST_USERS_MAX_PAGE_SIZE;
  for await (const user of iterateOffsetPages((page) => api.users.listPage({ planId, displayContributorSeatType, page, pageSize }), { pageSize })) {
    seats.set(user.id, seatOf(user, planId));
  }
  return seats;
}

/** GET /users/{id} of each user, `concurrency` at a time; a user gone meanwhile (404) is left out of the map. */
async function profilesOf(api: SmartsheetApi, users: readonly User[], concurrency: number): Promise<Map<number, UserProfile>> {
  const profiles = new Map<number, UserProfile>();
  await forEachLimited(users, concurrency, async (user) => {
    try {
      profiles.set(user.id, await api.users.get(user.id));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  });
  return profiles;
}
