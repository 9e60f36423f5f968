import { createHmac, randomUUID } from 'node:crypto';
import { CALLBACK_CHALLENGE_HEADER, CALLBACK_CHALLENGE_RESPONSE_HEADER, CALLBACK_SIGNATURE_HEADER } from '../../contract/index.js';
import type { WebhookRecord } from '../state/records.js';

export interface VerificationOutcome {
  ok: boolean;
  detail: string;
}

/** 127.0.0.0/8, ::1 and localhost: the only places the reference server ever sends a request to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /^::ffff:127\./.test(host);
}

/**
 * The URL the reference server may call for a webhook, or why it may not: only loopback addresses are ever called, so
 * the reference server never reaches out to the internet.
 */
export function loopbackUrlOf(callbackUrl: string): { url: URL } | { refused: string } {
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return { refused: 'The callback URL is not a valid URL.' };
  }
  return isLoopbackHost(url.hostname) ? { url } : { refused: 'The reference server only calls loopback callback URLs.' };
}

/**
 * POSTs a JSON body to a webhook's (loopback) URL as the service does: the plan webhook's custom headers, signed with
 * the shared secret the webhook holds at this moment, never following a redirect, within `timeoutMs`.
 */
export function postToCallback(webhook: WebhookRecord, url: URL, body: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...(webhook.customHeaders ?? {}), 'content-type': 'application/json', ...headers, [CALLBACK_SIGNATURE_HEADER]: signCallbackBody(webhook.sharedSecret, body) },
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/** HMAC-SHA256 of the raw body with the shared secret, hex (docs/service.md#webhooks). */
export function signCallbackBody(sharedSecret: string, body: string): string {
  return createHmac('sha256', sharedSecret).update(body).digest('hex');
}

/**
 * The verification handshake of docs/service.md#webhooks: POST `{challenge, webhookId}` with `Smartsheet-Hook-Challenge`, signed
 * as callbacks are; the subscriber must answer 200 echoing the challenge in the `Smartsheet-Hook-Response` header or
 * in `{"smartsheetHookResponse": ...}`. Only loopback URLs are called; any other URL fails without a network call,
 * so the reference server never reaches out to the internet.
 */
export async function verifyCallback(webhook: WebhookRecord, timeoutMs: number): Promise<VerificationOutcome> {
  const target = loopbackUrlOf(webhook.callbackUrl);
  if ('refused' in target) return { ok: false, detail: `${target.refused} Verification failed.` };
  const { url } = target;
  const challenge = randomUUID();
  const body = JSON.stringify({ challenge, webhookId: webhook.id });
  try {
    const response = await postToCallback(webhook, url, body, timeoutMs, { [CALLBACK_CHALLENGE_HEADER]: challenge });
    const text = await response.text();
    if (response.status !== 200) return { ok: false, detail: `The callback answered HTTP ${response.status}.` };
    if (response.headers.get(CALLBACK_CHALLENGE_RESPONSE_HEADER) === challenge) return { ok: true, detail: '' };
    try {
      const parsed = JSON.parse(text) as { smartsheetHookResponse?: unknown };
      if (parsed.smartsheetHookResponse === challenge) return { ok: true, detail: '' };
    } catch {
      // Not JSON: falls through to the failure below.
    }
    return { ok: false, detail: 'The callback did not echo the challenge.' };
  } catch (error) {
    return { ok: false, detail: `The callback could not be reached: ${(error as Error).message}` };
  }
}
