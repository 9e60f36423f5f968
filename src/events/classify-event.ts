import type { CallbackEvent } from '../contract/index.js';
import type { OwnChangeLedger } from './own-change-ledger.js';

/** Whose change an event reports, and why seatflow believes so (docs/events.md#whose-change). */
export type EventOrigin =
  | { by: 'seatflow'; why: 'change-agent' | 'own-call'; call?: string }
  | { by: 'outside'; why: 'another-user' | 'the-service' | 'own-account-not-seatflow' };

export interface ClassifyOptions {
  /** The user seatflow's access token acts for. */
  ownUserId: number;
  /** seatflow's `Smartsheet-Change-Agent` (config api.changeAgent), when it sends one. */
  changeAgent?: string | undefined;
  ledger: Pick<OwnChangeLedger, 'explain'>;
  now: number;
}

/**
 * The rule that tells seatflow's changes from everyone else's:
 * 1. an event with no acting user was made by the service itself (a review period ending): outside;
 * 2. an event made by another user than seatflow's account: outside (an admin in the Admin Center, an identity
 *    provider's sync, another integration);
 * 3. made by seatflow's account and carrying seatflow's change agent: seatflow's;
 * 4. made by seatflow's account and explained by a call in the own-change ledger (same user, an operation that makes
 *    this event, sent within the window before it, not already used for another such event): seatflow's;
 * 5. otherwise outside: someone used seatflow's account elsewhere.
 */
export async function classifyEvent(event: CallbackEvent, options: ClassifyOptions): Promise<EventOrigin> {
  if (event.userId === undefined) return { by: 'outside', why: 'the-service' };
  if (event.userId !== options.ownUserId) return { by: 'outside', why: 'another-user' };
  const agent = options.changeAgent?.trim();
  if (agent !== undefined && agent !== '' && (event.changeAgent ?? '').split(',').some((part) => part.trim() === agent)) {
    return { by: 'seatflow', why: 'change-agent' };
  }
  const call = await options.ledger.explain(event, options.now);
  if (call !== undefined) return { by: 'seatflow', why: 'own-call', call: `${call.operation} at ${new Date(call.at).toISOString()}` };
  return { by: 'outside', why: 'own-account-not-seatflow' };
}
