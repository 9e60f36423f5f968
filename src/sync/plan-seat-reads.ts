import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { User } from '../contract/index.js';
import { resolveUsers } from '../plan/resolve-users.js';

/**
 * How long the first seat step to ask waits for others before the read goes out. The add rows of a joiners workflow
 * end a few a second at the service's rate (300 calls a minute), each waking its seat step: a second gathers about five
 * of them into one call, where reading at once would spend a call on each.
 */
export const SEAT_READ_GATHER_MS = 1_000;

/** The plan-scoped listing answers up to 100 `email=` addresses a call (the lookups' batch, resolve-users.ts). */
const EMAILS_PER_READ = 100;

export interface SeatReadRequest {
  /** The reads of one key are shared: a workflow and its plan. */
  key: string;
  planId: number;
  email: string;
  api: SmartsheetApi;
}

export interface PlanSeatReads {
  /**
   * The user with `email` as the plan-scoped listing of `planId` lists them (status, admin flag, that plan's seat and
   * isInternal), or undefined when it does not (no seat in the plan, or not in the organization). The read goes out
   * after this was asked, so it is never older than the step that asked.
   */
  read(request: SeatReadRequest): Promise<User | undefined>;
}

interface Gathering {
  planId: number;
  api: SmartsheetApi;
  waiting: Map<string, { resolve(user: User | undefined): void; reject(error: unknown): void }[]>;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The seat steps of joiners read their users' seats in the policy's plan together: the steps that ask within
 * `gatherMs` of the first share one list users call filtered on the plan and their addresses (100 a call), instead of
 * one read of each user's plans. Kept in this process's memory (each step worker process reads for its own steps); a
 * read that fails fails every step that waited for it, which then retries as any step does.
 */
export function createPlanSeatReads(gatherMs: number = SEAT_READ_GATHER_MS): PlanSeatReads {
  const gatherings = new Map<string, Gathering>();

  async function flush(key: string, gathering: Gathering): Promise<void> {
    if (gatherings.get(key) === gathering) gatherings.delete(key);
    if (gathering.timer !== undefined) clearTimeout(gathering.timer);
    const emails = new Set(gathering.waiting.keys());
    try {
      const { byEmail } = await resolveUsers(gathering.api, emails, new Set(), { planId: gathering.planId, emailBatchSize: EMAILS_PER_READ, displayContributorSeatType: true });
      for (const [email, waiters] of gathering.waiting) for (const waiter of waiters) waiter.resolve(byEmail.get(email));
    } catch (error) {
      for (const waiters of gathering.waiting.values()) for (const waiter of waiters) waiter.reject(error);
    }
  }

  return {
    read({ key, planId, email, api }) {
      let gathering = gatherings.get(key);
      if (gathering === undefined) {
        const started: Gathering = { planId, api, waiting: new Map() };
        started.timer = setTimeout(() => void flush(key, started), gatherMs);
        gatherings.set(key, started);
        gathering = started;
      }
      const address = email.toLowerCase();
      const answer = new Promise<User | undefined>((resolve, reject) => {
        gathering.waiting.set(address, [...(gathering.waiting.get(address) ?? []), { resolve, reject }]);
      });
      // A full call's worth of addresses goes out at once: waiting longer would not save a call.
      if (gathering.waiting.size >= EMAILS_PER_READ) void flush(key, gathering);
      return answer;
    },
  };
}
