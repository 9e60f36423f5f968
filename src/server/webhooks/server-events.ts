import { eventFilterMatches, eventNameOf, isPastViewerSunset, type CallbackEvent, type PlanUserEvent } from '../../contract/index.js';
import { currentChangeSource } from '../sim/change-source.js';
import type { SimClock } from '../sim/sim-clock.js';
import type { ServerState } from '../state/server-state.js';
import type { SheetRecord, UserRecord, WebhookRecord } from '../state/records.js';
import { wireSeatType } from '../state/user-views.js';
import type { CallbackDispatcher } from './callback-dispatcher.js';

/** What changed on a sheet, as sheet webhooks report it. */
export type SheetChange = { objectType: 'column' | 'discussion'; eventType: 'created' | 'updated' | 'deleted'; id: number };

/**
 * The events of the reference server (docs/reference-server.md#callbacks): every user change, whoever made it, goes to
 * the enabled plan webhooks of the plans it touches; column and discussion changes to the enabled webhooks of their
 * sheet. Each event names who made it (the current change source) and when, by the server's clock.
 */
export interface ServerEvents {
  /** A user event for the plan webhooks of `planIds` (the plans the user held a seat in, before or after). */
  user(eventType: Exclude<PlanUserEvent, 'seatType.updated'>, user: UserRecord, planIds: readonly number[]): void;
  /** `user.seatType.updated` for each plan whose seat changed, with the seat the user holds there now. */
  seatChanged(user: UserRecord, planIds: readonly number[]): void;
  sheet(sheet: SheetRecord, change: SheetChange): void;
}

export interface ServerEventsDeps {
  state(): ServerState;
  clock: SimClock;
  viewerSunsetAt: number;
  dispatcher: CallbackDispatcher;
}

export function createServerEvents(deps: ServerEventsDeps): ServerEvents {
  function base(objectType: string, eventType: string, id: number): CallbackEvent {
    const source = currentChangeSource();
    return {
      objectType,
      eventType,
      id,
      ...(source.actorId === undefined ? {} : { userId: source.actorId }),
      timestamp: new Date(deps.clock.now()).toISOString(),
      ...(source.changeAgent === undefined ? {} : { changeAgent: source.changeAgent }),
    };
  }

  function deliver(event: CallbackEvent, takes: (webhook: WebhookRecord) => boolean): void {
    const name = eventNameOf(event);
    for (const webhook of deps.state().webhooks.values()) {
      if (webhook.enabled && takes(webhook) && eventFilterMatches(webhook.events, name)) deps.dispatcher.enqueue(webhook, event);
    }
  }

  const planWebhook = (planId: number) => (webhook: WebhookRecord) => webhook.scope === 'plan' && webhook.scopeObjectId === planId;

  function userFields(user: UserRecord, planId: number): Partial<CallbackEvent> {
    const seat = user.seats.find((s) => s.planId === planId);
    return { email: user.email, ...(seat === undefined ? {} : { isInternal: seat.isInternal }) };
  }

  return {
    user(eventType, user, planIds) {
      for (const planId of new Set(planIds)) {
        deliver({ ...base('user', eventType, user.id), ...userFields(user, planId) }, planWebhook(planId));
      }
    },
    seatChanged(user, planIds) {
      const contributor = isPastViewerSunset(deps.clock.now(), deps.viewerSunsetAt);
      for (const planId of new Set(planIds)) {
        const seat = user.seats.find((s) => s.planId === planId);
        if (seat === undefined) continue;
        deliver(
          {
            ...base('user', 'seatType.updated', user.id),
            ...userFields(user, planId),
            seatType: wireSeatType(seat.seatType, contributor),
            // Since 2025-10-29 seat type events carry the end of a Provisional Member's review period.
            provisionalExpirationDate: seat.provisionalExpirationDate === null ? null : new Date(seat.provisionalExpirationDate).toISOString(),
          },
          planWebhook(planId),
        );
      }
    },
    sheet(sheet, change) {
      deliver(base(change.objectType, change.eventType, change.id), (webhook) => {
        if (webhook.scope !== 'sheet' || webhook.scopeObjectId !== sheet.id) return false;
        // A subscope of columns limits column events to those columns (an empty list means all of them).
        const columns = webhook.subscope?.columnIds ?? [];
        return change.objectType !== 'column' || columns.length === 0 || columns.includes(change.id);
      });
    },
  };
}
