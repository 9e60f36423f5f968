import { createHash } from 'node:crypto';
import { eventNameOf, USER_EVENT, type CallbackEvent } from '../contract/index.js';
import type { EventOrigin } from './classify-event.js';

/**
 * A change of a user that seatflow did not make (docs/events.md#whose-change), as the audit trail, the drift check and
 * the lifecycles see it: who was changed, what happened, who did it (when the service says), and when.
 */
export interface OutsideChange {
  /** `user.deactivated`, `user.seatType.updated`, … */
  event: string;
  userId: number;
  email?: string;
  /** For a seat event: the seat the user holds now in the subscribed plan, and a Provisional Member's end of review. */
  seatType?: string;
  provisionalExpirationDate?: string | null;
  planId: number;
  /** The user who made it; absent when the service made it by itself (a review period ending). */
  actorId?: number;
  actorEmail?: string;
  /** When the service says it happened (ISO, the service's clock). */
  at: string;
  why: Extract<EventOrigin, { by: 'outside' }>['why'];
}

export function outsideChangeOf(event: CallbackEvent & { id: number }, planId: number, why: OutsideChange['why'], actorEmail: string | undefined): OutsideChange {
  return {
    event: eventNameOf(event),
    userId: event.id,
    ...(event.email === undefined ? {} : { email: event.email.toLowerCase() }),
    ...(event.seatType === undefined ? {} : { seatType: event.seatType }),
    ...(event.provisionalExpirationDate === undefined ? {} : { provisionalExpirationDate: event.provisionalExpirationDate }),
    planId,
    ...(event.userId === undefined ? {} : { actorId: event.userId }),
    ...(actorEmail === undefined ? {} : { actorEmail }),
    at: event.timestamp,
    why,
  };
}

/** One event, the same however often it is delivered: its webhook and every field that says what happened. */
export function eventFingerprint(webhookId: number, event: CallbackEvent): string {
  const parts = [webhookId, event.objectType, event.eventType, event.id, event.userId, event.timestamp, event.seatType, event.provisionalExpirationDate, event.changeAgent];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** "user.seatType.updated of jordan.lee@acme.example: CONTRIBUTOR" — the change in words, for messages. */
export function describeOutsideChange(change: OutsideChange): string {
  const who = change.email ?? `user ${change.userId}`;
  const what = EVENT_WORDS[change.event] ?? change.event;
  const seat = change.seatType === undefined ? '' : ` ${change.seatType}${change.seatType === 'PROVISIONAL_MEMBER' && change.provisionalExpirationDate ? ` until ${change.provisionalExpirationDate}` : ''}`;
  const by = change.actorEmail ?? (change.actorId === undefined ? 'the service' : `user ${change.actorId}`);
  return `${who} ${what}${seat} by ${by} at ${change.at}`;
}

const EVENT_WORDS: Record<string, string> = {
  [USER_EVENT.seatTypeUpdated]: 'was given the seat',
  [USER_EVENT.added]: 'was added',
  [USER_EVENT.deactivated]: 'was deactivated',
  [USER_EVENT.reactivated]: 'was reactivated',
  [USER_EVENT.removed]: 'was removed',
};
