import type { RunningReferenceServer } from '../../src/server/index.js';
import type { LoggedRequest } from '../../src/server/sim/request-log.js';
import type { CallEnv } from './call-env.js';

/**
 * The fewest calls a workflow can make for its people: `perPerson` for each (its changes, and the reads that must be
 * made per person because the state may have changed and the change matters), plus `fixed` bulk reads (who-am-I,
 * listings at the service's page caps) that do not grow with the people. `why` says what is counted.
 */
export interface Minimum {
  perPerson: number;
  fixed: number;
  why: string;
}

export interface ScenarioResult {
  people: number;
  calls: readonly LoggedRequest[];
  minimum: Minimum;
  /** What else the reader should know (what was checked, what the workflow did). */
  note?: string;
}

/** One workflow as bench/calls.ts measures it: set up what it needs (not counted), then run it and count its calls. */
export interface CallScenario {
  name: string;
  /** Users of the reference server's organization for `people` people. */
  organization(people: number): number;
  run(env: CallEnv, people: number): Promise<ScenarioResult>;
}

/** The cheapest way to resolve `people` e-mails in an organization of `users`: `email=` lookups of 100, or full pages of 2000. */
export function resolveFloor(people: number, users: number): number {
  return Math.min(Math.ceil(people / 100), Math.ceil(users / 2000));
}

/**
 * Users an admin may deactivate, remove or reseat (active, generated addresses, neither admins nor managed by an identity
 * provider), in the organization's order; with `memberOnly`, those holding MEMBER in one plan only (a move to another
 * seat is then a downgrade).
 */
export function candidates(server: RunningReferenceServer, people: number, memberOnly = false): string[] {
  const found: string[] = [];
  for (const user of server.context.state.users.values()) {
    if (found.length === people) break;
    if (user.status !== 'ACTIVE' || !user.inOrg || user.externallyManaged || user.admin || !/^[a-z]+\.[a-z]+\.\d+@acme\.example$/.test(user.email)) continue;
    if (memberOnly && (user.seats.length !== 1 || user.seats[0]?.seatType !== 'MEMBER')) continue;
    found.push(user.email);
  }
  if (found.length < people) throw new Error(`only ${found.length} users to work on`);
  return found;
}
