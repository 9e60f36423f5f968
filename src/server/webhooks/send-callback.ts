import type { WebhookRecord } from '../state/records.js';
import { loopbackUrlOf, postToCallback } from './verify-callback.js';

/** How one delivery attempt ended, and whether the service tries again. */
export type DeliveryOutcome =
  | { kind: 'delivered' }
  /** 400–499 but 410, 500–599, a timeout or no connection: tried again later (docs/service.md#events). */
  | { kind: 'retry'; detail: string }
  /** Any other answer (201–299, 3xx, 410): this callback is given up at once, the webhook stays enabled. */
  | { kind: 'dropped'; detail: string };

/** The answers the service retries: 4xx but 410, 5xx (a timeout and no connection are retried too). */
export function retriesStatus(status: number): boolean {
  return (status >= 400 && status <= 499 && status !== 410) || (status >= 500 && status <= 599);
}

/**
 * POSTs one callback body to the webhook's URL, signed with the shared secret the webhook holds now (so a reset secret
 * signs the next callback), with the plan webhook's custom headers. Loopback URLs only: any other URL is an attempt
 * that fails without a network call, as verification does, so the reference server never reaches out.
 */
export async function sendCallback(webhook: WebhookRecord, body: string, timeoutMs: number): Promise<DeliveryOutcome> {
  const target = loopbackUrlOf(webhook.callbackUrl);
  if ('refused' in target) return { kind: 'retry', detail: target.refused };
  const { url } = target;
  try {
    const response = await postToCallback(webhook, url, body, timeoutMs);
    // Read (and drop) the answer so that the connection is freed.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 200) return { kind: 'delivered' };
    const detail = `The callback URL answered HTTP ${response.status}.`;
    return retriesStatus(response.status) ? { kind: 'retry', detail } : { kind: 'dropped', detail };
  } catch (error) {
    return { kind: 'retry', detail: `The callback URL could not be reached: ${(error as Error).message}` };
  }
}
