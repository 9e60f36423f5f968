import { createHash, randomUUID } from 'node:crypto';
import type { BeforeRequestInfo } from '../client/smartsheet-client-options.js';
import { DOWNGRADE_SEAT_TYPES, eventNameOf, USER_EVENT, type CallbackEvent } from '../contract/index.js';
import { luaScript, type RedisClient } from '../queue/redis/lua-script.js';
import type { ReplicatedWrites } from '../queue/redis/replicated-write.js';
import type { EventKeys } from './event-keys.js';
import { writeTogether } from '../queue/redis/write-together.js';

/**
 * The events each of seatflow's user-changing calls makes the service send. A deactivation also takes the Member seat
 * and a reactivation gives one (docs/service.md#seats-follow-the-lifecycle), so they explain a seat event too.
 */
export const OWN_CALL_EVENTS: Readonly<Record<string, readonly string[]>> = {
  'users.add': [USER_EVENT.added, USER_EVENT.seatTypeUpdated],
  'users.deactivate': [USER_EVENT.deactivated, USER_EVENT.seatTypeUpdated],
  'users.reactivate': [USER_EVENT.reactivated, USER_EVENT.seatTypeUpdated],
  'users.remove': [USER_EVENT.removed],
  'users.removeFromPlan': [USER_EVENT.removed],
  'users.downgrade': [USER_EVENT.seatTypeUpdated],
  'users.upgrade': [USER_EVENT.seatTypeUpdated],
};

/** The seats a deactivation or a downgrade leaves: the free ones, those a downgrade may ask for. */
const FREE_SEATS: readonly string[] = DOWNGRADE_SEAT_TYPES;

/**
 * The seats a call can leave its user in, where it moves their seat (undefined: any, an add's): the seat event it
 * explains reports one of them. A deactivation or a downgrade leaves a free seat, a reactivation a Member seat, an
 * upgrade the seat it asked for (MEMBER when none). So a seat event going the other way is never taken for the call's:
 * an admin giving a Member seat to a leaver seatflow deactivated, or to a user it downgraded, is told as outside even
 * while a note of that call (a retried attempt's, which made no event) is still in the window.
 */
function seatsLeftBy(operation: string, json: unknown): readonly string[] | undefined {
  if (operation === 'users.deactivate' || operation === 'users.downgrade') return FREE_SEATS;
  if (operation === 'users.reactivate') return ['MEMBER'];
  if (operation === 'users.upgrade') {
    const asked = (json as { seatType?: unknown } | undefined)?.seatType;
    return [typeof asked === 'string' ? asked : 'MEMBER'];
  }
  return undefined;
}

/** One call seatflow made (or was about to make) that changes a user. */
export interface OwnCall {
  id: string;
  operation: string;
  userId?: number;
  /** For an add, where the user's id is not known yet. */
  email?: string;
  /** The seats the call can leave the user in (seatsLeftBy); absent: any. */
  seats?: readonly string[];
  /** When it was noted, on Redis' clock (the note's score). */
  at: number;
}

// KEYS: the subject's calls. ARGV: the call (JSON, without its time), window ms, the time to note it at (ms; empty:
// Redis' own clock). A note is timed by Redis, not by the worker: a worker whose clock is behind would note calls
// that fall out of the window before their events come, and one ahead would prune the notes of every other worker.
// A note made again (a replica did not take it in time) keeps its first time: it is still one call.
const NOTE = luaScript('OwnChangeNote', `
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then redis.call('ZADD', KEYS[1], now, ARGV[1]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return now`);

export interface OwnChangeLedger {
  /** The client's `beforeRequest`: records a user-changing call before it is sent, so no event can come before it. */
  note(info: BeforeRequestInfo): Promise<void>;
  /**
   * The own call that explains this event, if any: same user, an operation that makes this event (a seat event: to a
   * seat the call can leave), sent within the window before the event arrived, and not already used to explain another
   * event of this name. Claims it.
   */
  explain(event: CallbackEvent, now: number): Promise<OwnCall | undefined>;
}

export interface OwnChangeLedgerOptions {
  /** How long a call may explain an event that arrives after it (default 15 minutes: a callback's retries). */
  windowMs?: number;
  /** The time notes are taken at (tests); default Redis' clock, one for every seatflow process. */
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
  return {
    async note(info) {
      if (OWN_CALL_EVENTS[info.operation] === undefined) return;
      const subject = subjectOf(info);
      const key = subject.userId !== undefined ? keys.ownCalls(`u:${subject.userId}`) : subject.email !== undefined ? keys.ownCalls(`e:${subject.email}`) : undefined;
      if (key === undefined) return;
      const seats = seatsLeftBy(info.operation, info.json);
      const member = JSON.stringify({ id: randomUUID(), operation: info.operation, ...subject, ...(seats === undefined ? {} : { seats }) });
      const at = options.now === undefined ? '' : String(options.now());
      const write = () => NOTE.run(redis, [key], [member, windowMs, at]);
      // A note a failover dropped would make seatflow's own change look like someone else's.
      await (options.replicated === undefined ? write() : options.replicated.write(key, write));
    },
    async explain(event, now) {
      const name = eventNameOf(event);
      const claimant = claimantOf(event);
      const email = event.email?.toLowerCase();
      // Only this user's calls are read: a batch of 10,000 rows costs each event a look at one or two calls.
      const subjects = [...(event.id === undefined ? [] : [`u:${event.id}`]), ...(email === undefined ? [] : [`e:${email}`])];
      for (const subject of subjects) {
        const noted = await redis.zrangebyscore(keys.ownCalls(subject), now - windowMs, '+inf', 'WITHSCORES');
        for (let i = 0; i + 1 < noted.length; i += 2) {
          const call = { ...(JSON.parse(noted[i]!) as Omit<OwnCall, 'at'>), at: Number(noted[i + 1]) };
          if (!(OWN_CALL_EVENTS[call.operation] ?? []).includes(name)) continue;
          if (name === USER_EVENT.seatTypeUpdated && call.seats !== undefined && event.seatType !== undefined && !call.seats.includes(event.seatType)) continue;
          // Claimed once per event name: a second event of that kind needs a second call to be seatflow's. The claim
          // names the event, so the same event asked again (its handling retried after Redis failed under it, its
          // callback delivered again) finds the call it claimed rather than none.
          const used = keys.ownCallsUsed(subject);
          const field = `${call.id}|${name}`;
          const replies = await writeTogether(redis, [used], [['HSETNX', used, field, claimant], ['HGET', used, field], ['PEXPIRE', used, windowMs * 2]]);
          if (replies[1] === claimant) return call;
        }
      }
      return undefined;
    },
  };
}

/** One event, the same however often it comes: every field that says what happened (not the delivery's). */
function claimantOf(event: CallbackEvent): string {
  const parts = [event.objectType, event.eventType, event.id, event.userId, event.timestamp, event.seatType, event.provisionalExpirationDate, event.changeAgent];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 24);
}

/** The user a call is about: from its path (`/users/{id}/…`), or an add's body (the e-mail). */
function subjectOf(info: BeforeRequestInfo): Pick<OwnCall, 'userId' | 'email'> {
  const id = /^\/users\/(\d+)(?:\/|$)/.exec(info.path ?? '')?.[1];
  if (id !== undefined) return { userId: Number(id) };
  const body = info.json as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? { email: body.email.toLowerCase() } : {};
}
