import { createHash } from 'node:crypto';
import { hashTag } from '../queue/queue-keys.js';

/**
 * The Redis keys of the service's events (docs/events.md), per target: the subscription (its webhook and shared
 * secret), the nonces and events already taken, seatflow's own change ledger, and the Provisional Members tracked.
 * All under one hash tag, so a script or a transaction over them stays in one slot on a Redis Cluster.
 */
export function createEventKeys(prefix: string, target: string) {
  const base = `${prefix}:sf:${hashTag('events')}:${targetKeyOf(target)}`;
  return {
    /** Hash: the target's plan webhook, its shared secret (and the one before a rotation), its owner. */
    subscription: `${base}:subscription`,
    /** A callback's nonce, kept as long as a replay could pass the time window (SET NX, expiring). */
    nonce: (nonce: string) => `${base}:nonce:${digest(nonce)}`,
    /** Hash stage → 1 of one event: which of its effects are done (an event handled twice acts once). */
    event: (fingerprint: string) => `${base}:event:${fingerprint}`,
    /**
     * Sorted set of one user's (`u:<id>`, or `e:<email>` for an add): seatflow's own calls that change that user, by the
     * time they were sent (the own-change ledger); it expires with the window.
     */
    ownCalls: (subject: string) => `${base}:own-calls:${digest(subject).slice(0, 32)}`,
    /** Hash `<call>|<event name>` → 1 of one user: which events an own call already explained; expires with the window. */
    ownCallsUsed: (subject: string) => `${base}:own-calls-used:${digest(subject).slice(0, 32)}`,
    /**
     * Sorted set of one user's events as taken in (JSON, by Redis time): what a row whose answer was lost reads
     * (user-event-log.ts); kept a week.
     */
    userEvents: (userId: number) => `${base}:user-events:${userId}`,
    /** Hash userId → the Provisional Member's seat (JSON); the sorted set orders them by expiry. */
    provisional: `${base}:provisional`,
    provisionalByExpiry: `${base}:provisional-by-expiry`,
    /** Counters: callbacks taken and refused, events by origin (for `webhooks status` and metrics). */
    counters: `${base}:counters`,
  };
}

export type EventKeys = ReturnType<typeof createEventKeys>;

/** The BullMQ queue of a target's callbacks, taken and waiting to be handled: only that target's processes take them. */
export function eventsQueueNameOf(target: string): string {
  return hashTag(`events-${digest(target).slice(0, 8)}`);
}

function targetKeyOf(target: string): string {
  return digest(target).slice(0, 16);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
