import { sameSeatType } from '../contract/index.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import { policySeatOf } from '../reconcile/evaluate-policy.js';
import { readPlanUsers } from '../reconcile/read-plan-users.js';
import { createAcceptedExports } from '../sync/accepted-exports.js';
import type { KeptEmployee } from '../sync/employee.js';
import { loadLifecyclePolicy, type LoadedLifecyclePolicy } from '../sync/load-lifecycle-policy.js';
import { seatFor } from '../sync/seat-rules.js';
import { protectionOf } from '../sync/sync-protection.js';
import type { Drift, DriftCheckOptions, PolicyInForce } from './drift-check.js';
import type { OutsideChange } from './outside-change.js';

/** What the last accepted HR export says of a person, by e-mail (docs/sync.md#how-it-runs). */
export interface HrRecords {
  kept(policy: LoadedLifecyclePolicy, email: string): Promise<KeptEmployee | undefined>;
}

/**
 * The accepted exports of a target, looked up by e-mail: the export is kept by employee id, so each accepted export is
 * read once (a chunk at a time) into an index, read again only when another export has been accepted.
 */
export function createHrRecords(redis: RedisClient, keys: QueueKeys, target: string): HrRecords {
  const indexes = new Map<string, { sha256: string; byEmail: Map<string, KeptEmployee> }>();
  return {
    async kept(policy, email) {
      const accepted = createAcceptedExports(redis, keys, target, policy.key);
      const meta = await accepted.meta();
      if (meta === undefined) return undefined;
      let index = indexes.get(accepted.key);
      if (index?.sha256 !== meta.sha256) {
        const byEmail = new Map<string, KeptEmployee>();
        for await (const [, employee] of accepted.employees()) byEmail.set(employee.e.toLowerCase(), employee);
        index = { sha256: meta.sha256, byEmail };
        indexes.set(accepted.key, index);
      }
      return index.byEmail.get(email.toLowerCase());
    },
  };
}

/**
 * Whether an HR sync's lifecycle policy forbids what a change made elsewhere left: a person the last accepted export
 * says is employed (started, not leaving) who is deactivated, not in the plan, or holds another seat than the
 * policy's seat rules give; or a person who has left by the export who is active again. A person the policy protects,
 * one the export does not know, a joiner yet to start and a leaver yet to leave are no drift. A lifecycle policy only
 * tells: the next sync acts on what HR says.
 */
export async function checkLifecycleDrift(change: OutsideChange, policy: PolicyInForce, options: DriftCheckOptions & { records: HrRecords }): Promise<Drift | undefined> {
  if (change.email === undefined) return undefined;
  const loaded = await loadLifecyclePolicy(policy.path);
  const person = await options.records.kept(loaded, change.email);
  if (person === undefined) return undefined;
  const live = await readPlanUsers(options.api, loaded.policy.planId, [change.email]);
  const user = live.users.find((candidate) => candidate.email.toLowerCase() === change.email);
  if (protectionOf({ protect: loaded.policy.protect, protectedAccounts: options.guardrails.protectedAccounts, callerId: live.caller.id })(change.email, user) !== undefined) return undefined;
  const now = options.now.getTime();
  const drift = (found: Pick<Drift, 'now' | 'wanted' | 'rule'> & Partial<Pick<Drift, 'seatNow' | 'seatWanted'>>): Drift => ({
    policy,
    policySha256: loaded.sha256,
    email: change.email ?? '',
    userId: user?.id ?? change.userId,
    planId: live.planId,
    onDrift: 'notify',
    ...found,
  });
  const left = person.s === 'l' || (person.end !== undefined && person.end <= now);
  if (left) {
    return user !== undefined && user.status === 'ACTIVE' ? drift({ now: 'active', wanted: 'left (the HR export says so)', rule: 'leavers' }) : undefined;
  }
  // A leaver with a last day to come, or a joiner before the first day: the sync's steps decide, not drift.
  if (person.end !== undefined || (person.start !== undefined && person.start > now)) return undefined;
  if (user === undefined) return drift({ now: 'not in the plan', wanted: 'in the plan (employed, by the HR export)', rule: 'employed' });
  if (user.status === 'DEACTIVATED') return drift({ now: 'deactivated', wanted: 'active (employed, by the HR export)', rule: 'employed' });
  const choice = seatFor({ ...(person.d === undefined ? {} : { department: person.d }), ...(person.t === undefined ? {} : { title: person.t }), ...(person.loc === undefined ? {} : { location: person.loc }) }, loaded.policy.seats);
  const seatNow = policySeatOf(user);
  // A Provisional Member approved into a Member seat is what the review period is for, not drift.
  if (sameSeatType(seatNow, choice.seat) || (choice.seat === 'PROVISIONAL_MEMBER' && seatNow === 'MEMBER')) return undefined;
  return drift({ now: seatNow ?? 'no known seat', wanted: choice.seat, seatNow: seatNow ?? 'no known seat', seatWanted: choice.seat, rule: choice.rule });
}
