import { createHmac, timingSafeEqual } from 'node:crypto';
import { callbackSchema, type Callback } from '../contract/index.js';

/** Why a callback is refused; none of them changes anything. */
export type CallbackRefusal = 'malformed' | 'unknown-webhook' | 'signature' | 'stale' | 'replayed';

export type CallbackCheck = { ok: true; callback: Callback } | { ok: false; refusal: CallbackRefusal; message: string };

export interface CheckCallbackInput {
  /** The raw body, exactly as received: the signature covers these bytes. */
  raw: string;
  /** The `Smartsheet-Hmac-SHA256` header. */
  signature: string | undefined;
  /** The subscribed webhook's id, and the secrets a callback may be signed with now (secretsOf). */
  webhookId: number | undefined;
  secrets: readonly string[];
  /** The service's time now (ms), and how far a callback's timestamp may be from it. */
  serviceNowMs: number;
  toleranceMs: number;
}

/**
 * Whether a callback is the service's, and fresh: it must parse, name the subscribed webhook, carry an HMAC-SHA256 of
 * its raw body with one of the secrets (compared in constant time), and a timestamp within the window of the service's
 * clock (so a captured callback cannot be replayed later). The nonce is checked after this, in Redis. Pure.
 */
export function checkCallback(input: CheckCallbackInput): CallbackCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.raw);
  } catch {
    return { ok: false, refusal: 'malformed', message: 'the body is not JSON' };
  }
  const callback = callbackSchema.safeParse(parsed);
  if (!callback.success) return { ok: false, refusal: 'malformed', message: 'the body is not a callback (nonce, timestamp, webhookId, scope, scopeObjectId, events)' };
  if (input.webhookId === undefined || callback.data.webhookId !== input.webhookId) {
    return { ok: false, refusal: 'unknown-webhook', message: `webhook ${callback.data.webhookId} is not the one this seatflow subscribed (seatflow webhooks status)` };
  }
  if (!input.secrets.some((secret) => signatureMatches(secret, input.raw, input.signature))) {
    return { ok: false, refusal: 'signature', message: 'the Smartsheet-Hmac-SHA256 signature does not verify with the shared secret' };
  }
  const at = Date.parse(callback.data.timestamp);
  if (!Number.isFinite(at) || Math.abs(input.serviceNowMs - at) > input.toleranceMs) {
    return { ok: false, refusal: 'stale', message: `the callback's timestamp ${callback.data.timestamp} is more than ${Math.round(input.toleranceMs / 1000)} s from the service's time` };
  }
  return { ok: true, callback: callback.data };
}

export function signatureMatches(secret: string, raw: string, signature: string | undefined): boolean {
  if (signature === undefined || !/^[0-9a-f]{64}$/i.test(signature.trim())) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(signature.trim(), 'hex'));
}
