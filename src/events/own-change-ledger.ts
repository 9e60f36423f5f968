import { randomUUID } from 'node:crypto';
import type { BeforeRequestInfo } from '../client/smartsheet-client-options.js';
import { eventNameOf, type CallbackEvent } from '../contract/index.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { ReplicatedWrites } from '../queue/redis/replicated-write.js';
import type { EventKeys } from './event-keys.js';

/**
 * The events each of seatflow's user-changing calls makes the service send. A deactivation also takes the Member seat
 * and a reactivation gives one (docs/service.md#seats-follow-the-lifecycle), so they explain a seat event too.
 */
export const OWN_CALL_EVENTS: Readonly<Record<string, readonly string[]>> = {
  'users.add': ['user.added', 'user.seatType.updated'],
  'users.deactivate': ['user.deactivated', 'user.seatType.updated'],
  'users.reactivate': ['user.reactivated', 'user.seatType.updated'],
  'users.remove': ['user.removed'],
  'users.removeFromPlan': ['user.removed'],
  'users.downgrade': ['user.seatType.updated'],
  'users.upgrade': ['user.seatType.updated'],
};

/** One call seatflow made (or was about to make) that changes a user. */
export interface OwnCall {
  id: string;
  operation: string;
  userId?: number;
  /** For an add, where the user's id is not known yet. */
  email?: string;
  at: number;
}

export interface OwnChangeLedger {
  /** The client's `beforeRequest`: records a user-changing call before it is sent, so no event can come before it. */
  note(info: BeforeRequestInfo): Promise<void>;
  /**
   * The own call that explains this event, if any: same user, an operation that makes this event, sent within the
   * window before the event arrived, and not already used to explain another event of this name. Claims it.
   */
  explain(event: CallbackEvent, now: number): Promise<OwnCall | undefined>;
}

export interface OwnChangeLedgerOptions {
  /** How long a call may explain an event that arrives after it (default 15 minutes: a callback's retries). */
  windowMs?: number;
  now?: () => number;
  /** Where a note must reach a replica before its call leaves (behind Sentinel, on a cluster): replicated-write.ts. */
  replicated?: ReplicatedWrites;
}

/**
 * seatflow's own-change ledger (docs/events.md#whose-change): every user-changing call any seatflow process makes goes
 * through the budgeted client, whose `beforeRequest` writes it here before the request leaves. An event about a user,
 * made by seatflow's own account, is seatflow's when a call in the ledger explains it; otherwise someone else used
 * the account (the Admin Center, another script with its token). Kept for the window only.
 */
export function createOwnChangeLedger(redis: RedisClient, keys: Pick<EventKeys, 'ownCalls' | 'ownCallsUsed'>, options: OwnChangeLedgerOptions = {}): OwnChangeLedger {
  const windowMs = options.windowMs ?? 15 * 60_000;
  const clock = options.now ?? Date.now;
  return {
    async note(info) {
      if (OWN_CALL_EVENTS[info.operation] === undefined) return;
      const at = clock();
      const subject = subjectOf(info);
      const key = subject.userId !== undefined ? keys.ownCalls(`u:${subject.userId}`) : subject.email !== undefined ? keys.ownCalls(`e:${subject.email}`) : undefined;
      if (key === undefined) return;
      const call: OwnCall = { id: randomUUID(), operation: info.operation, at, ...subject };
      const member = JSON.stringify(call);
      // The same member each time: a note made again (a replica did not take it in time) is still one call.
      const write = () => redis.multi().zadd(key, at, member).zremrangebyscore(key, '-inf', at - windowMs).pexpire(key, windowMs * 2).exec();
      // A note a failover dropped would make seatflow's own change look like someone else's.
      await (options.replicated === undefined ? write() : options.replicated.write(key, write));
    },
    async explain(event, now) {
      const name = eventNameOf(event);
      const email = event.email?.toLowerCase();
      // Only this user's calls are read: a batch of 10,000 rows costs each event a look at one or two calls.
      const subjects = [...(event.id === undefined ? [] : [`u:${event.id}`]), ...(email === undefined ? [] : [`e:${email}`])];
      for (const subject of subjects) {
        for (const member of await redis.zrangebyscore(keys.ownCalls(subject), now - windowMs, '+inf')) {
          const call = JSON.parse(member) as OwnCall;
          if (!(OWN_CALL_EVENTS[call.operation] ?? []).includes(name)) continue;
          // Claimed once per event name: a second event of that kind needs a second call to be seatflow's.
          const used = keys.ownCallsUsed(subject);
          const [[, claimed] = []] = (await redis.multi().hsetnx(used, `${call.id}|${name}`, '1').pexpire(used, windowMs * 2).exec()) ?? [];
          if (claimed === 1) return call;
        }
      }
      return undefined;
    },
  };
}

/** The user a call is about: from its path (`/users/{id}/…`), or an add's body (the e-mail). */
function subjectOf(info: BeforeRequestInfo): Pick<OwnCall, 'userId' | 'email'> {
  const id = /^\/users\/(\d+)(?:\/|$)/.exec(info.path ?? '')?.[1];
  if (id !== undefined) return { userId: Number(id) };
  const body = info.json as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? { email: body.email.toLowerCase() } : {};
}
