import { LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE, LIST_USERS_MAX_PAGE_SIZE } from '../contract/index.js';

/** What a read of the live organization must learn besides each user's identity, status and admin flags. */
export interface LiveReadNeeds {
  /** The seat per plan (seat type, isInternal, provisional expiry): only plan-filtered listings carry it. */
  seats: boolean;
  /** Only on list-users pages of at most 100 users, or from GET /users/{id}. */
  lastLogin: boolean;
  /** Not in the listing at all: one GET /users/{id} per user. */
  alternateEmails: boolean;
  /** Readable for the caller only, from the GET /users/me the read starts with: no extra call. */
  groupsOwned: boolean;
}

/** What the first calls of a read found: how many users the organization and each plan read hold. */
export interface OrganizationCounts {
  users: number;
  /** In the order the plans are read (the caller's, or the ones asked for). */
  plans: { planId: number; users: number }[];
}

export interface LiveReadLimits {
  /**
   * Seats of plans other than the one every user is listed from that may be held in memory, to join them at one call
   * per 2000 users; a plan beyond it is looked up by e-mail, one call per 100 users, holding nothing. Default 20,000
   * (a few MB whatever the organization's size).
   */
  preloadSeats?: number;
}

/** How one plan's seats join the users: held in memory, looked up per 100 users, or nothing to read. */
export type SecondaryPlanRead = { planId: number; users: number; calls: number; how: 'preload' | 'lookup' | 'empty' };

/** The calls a read will make, chosen and counted before it starts. */
export interface LiveReadPlan {
  needs: LiveReadNeeds;
  users: number;
  /**
   * The listing every user comes from: a plan's when that plan holds every user of the organization (its listing then
   * carries that plan's seat too), otherwise the organization's.
   */
  primary: { planId?: number; pageSize: number; calls: number };
  secondary: SecondaryPlanRead[];
  /** GET /users/{id} for every user, when alternate e-mails are asked for (lastLogin then comes from it too). */
  perUserCalls: number;
  lastLoginFrom: 'listing' | 'per-user' | undefined;
  /** Calls already spent finding the caller, the plans and the counts. */
  probeCalls: number;
  calls: number;
}

/** Users per `email=` lookup: 100 addresses keep the URL short (as the pre-flight's batches). */
export const LOOKUP_BATCH_SIZE = 100;
const DEFAULT_PRELOAD_SEATS = 20_000;

const pages = (users: number, pageSize: number) => Math.max(1, Math.ceil(users / pageSize));

/**
 * The cheapest plan of calls that reads every user with what `needs` asks, within the service's paging rules
 * (docs/service.md#paging-list-users, docs/service.md#list-users) and in memory that does not grow with the
 * organization: pages of 2000, or 100 when lastLogin must come from the listing; a plan's listing as the primary one
 * when it holds everyone, so its seats cost nothing more; other plans preloaded while they fit `preloadSeats`.
 */
export function planLiveRead(counts: OrganizationCounts, needs: LiveReadNeeds, probeCalls: number, limits: LiveReadLimits = {}): LiveReadPlan {
  const perUser = needs.alternateEmails;
  const lastLoginFrom = !needs.lastLogin ? undefined : perUser ? 'per-user' : 'listing';
  const pageSize = lastLoginFrom === 'listing' ? LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE : LIST_USERS_MAX_PAGE_SIZE;
  const plans = needs.seats ? counts.plans : [];
  // Plan listings are subsets of the organization's: one as large holds every user.
  const everyone = plans.find((plan) => plan.users > 0 && plan.users === counts.users);
  const primary = { ...(everyone === undefined ? {} : { planId: everyone.planId }), pageSize, calls: pages(counts.users, pageSize) };
  let preloadLeft = limits.preloadSeats ?? DEFAULT_PRELOAD_SEATS;
  const secondary: SecondaryPlanRead[] = [];
  for (const plan of plans) {
    if (plan === everyone) continue;
    if (plan.users === 0) {
      secondary.push({ ...plan, calls: 0, how: 'empty' });
    } else if (plan.users <= preloadLeft) {
      preloadLeft -= plan.users;
      secondary.push({ ...plan, calls: pages(plan.users, LIST_USERS_MAX_PAGE_SIZE), how: 'preload' });
    } else {
      secondary.push({ ...plan, calls: pages(counts.users, LOOKUP_BATCH_SIZE), how: 'lookup' });
    }
  }
  const perUserCalls = perUser ? counts.users : 0;
  const calls = probeCalls + primary.calls + secondary.reduce((sum, plan) => sum + plan.calls, 0) + perUserCalls;
  return { needs, users: counts.users, primary, secondary, perUserCalls, lastLoginFrom, probeCalls, calls };
}
