import { z } from 'zod';
import { idSchema } from './ids.js';
import { WEBHOOK_SCOPES } from './enums.js';

/**
 * What a webhook sends its callback URL (docs/service.md#events): a batch of events, signed with the webhook's shared
 * secret. One schema for the reference server that sends it and for seatflow's endpoint that receives it.
 */

/** The header carrying HMAC-SHA256 of the raw body with the shared secret, in hex. */
export const CALLBACK_SIGNATURE_HEADER = 'smartsheet-hmac-sha256';
/** The verification request's header; the subscriber echoes its value. */
export const CALLBACK_CHALLENGE_HEADER = 'smartsheet-hook-challenge';
export const CALLBACK_CHALLENGE_RESPONSE_HEADER = 'smartsheet-hook-response';

/**
 * Plan-scope user events, as `<objectType>.<eventType>`: the names a plan webhook's `events` filter matches
 * (`user.*`, `user.seatType.*`, `user.seatType.updated`, `*.*`).
 */
export const PLAN_USER_EVENTS = ['seatType.updated', 'added', 'deactivated', 'reactivated', 'removed'] as const;
export type PlanUserEvent = (typeof PLAN_USER_EVENTS)[number];

/** Each plan-scope user event by its full name, as `eventNameOf` gives it: the one spelling every reader compares. */
export const USER_EVENT = {
  seatTypeUpdated: 'user.seatType.updated',
  added: 'user.added',
  deactivated: 'user.deactivated',
  reactivated: 'user.reactivated',
  removed: 'user.removed',
} as const satisfies Record<string, `user.${PlanUserEvent}`>;

/** Sheet-scope events the reference server sends: column and discussion changes. */
export const SHEET_OBJECT_TYPES = ['column', 'discussion'] as const;
export const SHEET_EVENT_TYPES = ['created', 'updated', 'deleted'] as const;

/**
 * One event. `id` is the object changed (the user, the column, the discussion); `userId` the user who made the change
 * (absent when the service made it by itself, e.g. a Provisional Member's review period ending); `changeAgent` the
 * `Smartsheet-Change-Agent` the change was asked with. User events also carry the user's `email`, `isInternal` and, for
 * seat changes, the seat in the webhook's plan with its `provisionalExpirationDate`. Unknown fields are kept: the
 * service adds fields, and a reader must not fail on them.
 */
export const callbackEventSchema = z.looseObject({
  objectType: z.string(),
  eventType: z.string(),
  id: idSchema.optional(),
  userId: idSchema.optional(),
  timestamp: z.string(),
  changeAgent: z.string().optional(),
  email: z.string().optional(),
  isInternal: z.boolean().optional(),
  seatType: z.string().optional(),
  provisionalExpirationDate: z.string().nullable().optional(),
});
export type CallbackEvent = z.infer<typeof callbackEventSchema>;

/** A callback: one batch of events of one webhook, with the nonce and time of this delivery attempt. */
export const callbackSchema = z.looseObject({
  nonce: z.string().min(1),
  timestamp: z.string(),
  webhookId: idSchema,
  scope: z.union([z.enum(WEBHOOK_SCOPES), z.string()]),
  scopeObjectId: idSchema,
  events: z.array(callbackEventSchema).optional(),
  /** Sent instead of events when the service changes the webhook's status by itself. */
  newWebhookStatus: z.string().optional(),
});
export type Callback = z.infer<typeof callbackSchema>;

/** The verification request sent when a webhook is enabled (and again now and then). */
export const callbackChallengeSchema = z.object({ challenge: z.string().min(1), webhookId: idSchema });

/** `user.seatType.updated`: the name a webhook's `events` filter and seatflow's records use. */
export function eventNameOf(event: Pick<CallbackEvent, 'objectType' | 'eventType'>): string {
  return `${event.objectType}.${event.eventType}`;
}

/**
 * Whether a webhook's `events` filter takes an event: `*.*` everything, `user.*` or `user.seatType.*` a family (and
 * whatever joins it later), anything else one event by its full name. Case is ignored.
 */
export function eventFilterMatches(filters: readonly string[], name: string): boolean {
  const wanted = name.toLowerCase();
  return filters.some((raw) => {
    const filter = raw.trim().toLowerCase();
    if (filter === '*.*' || filter === '*') return true;
    if (filter.endsWith('.*')) return wanted.startsWith(filter.slice(0, -1));
    return filter === wanted;
  });
}
