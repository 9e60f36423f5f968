import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCallback } from '../../../src/events/check-callback.js';

const SECRET = 'a-shared-secret-of-the-webhook';
const NOW = Date.parse('2026-11-23T10:00:00Z');
const body = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ nonce: 'n-1', timestamp: '2026-11-23T09:59:30.000Z', webhookId: 42, scope: 'plan', scopeObjectId: 7, events: [], ...over });
const sign = (raw: string, secret = SECRET) => createHmac('sha256', secret).update(raw).digest('hex');
const input = (raw: string, signature: string | undefined) => ({ raw, signature, webhookId: 42, secrets: [SECRET], serviceNowMs: NOW, toleranceMs: 300_000 });

describe('checkCallback (docs/events.md#the-callback-endpoint)', () => {
  it('takes a callback signed with the shared secret, within the window', () => {
    const raw = body();
    expect(checkCallback(input(raw, sign(raw)))).toMatchObject({ ok: true, callback: { nonce: 'n-1', webhookId: 42 } });
  });

  it('takes the secret before a rotation while it is offered, in any hex case', () => {
    const raw = body();
    expect(checkCallback({ ...input(raw, sign(raw, 'the-old-secret').toUpperCase()), secrets: [SECRET, 'the-old-secret'] }).ok).toBe(true);
  });

  it('refuses a signature of other bytes, of another secret, a missing one, and a malformed one', () => {
    const raw = body();
    for (const signature of [sign(body({ nonce: 'n-2' })), sign(raw, 'another-secret'), undefined, 'zz', `${sign(raw)}00`]) {
      expect(checkCallback(input(raw, signature))).toMatchObject({ ok: false, refusal: 'signature' });
    }
  });

  it('refuses a timestamp outside the window on either side of the service\'s time', () => {
    for (const timestamp of ['2026-11-23T09:54:59.000Z', '2026-11-23T10:05:01.000Z', 'not a date']) {
      const raw = body({ timestamp });
      expect(checkCallback(input(raw, sign(raw)))).toMatchObject({ ok: false, refusal: 'stale' });
    }
  });

  it('refuses another webhook\'s callback and anything that is not a callback, before looking at the signature', () => {
    const other = body({ webhookId: 43 });
    expect(checkCallback(input(other, sign(other)))).toMatchObject({ ok: false, refusal: 'unknown-webhook' });
    expect(checkCallback(input('{"hello":1}', sign('{"hello":1}')))).toMatchObject({ ok: false, refusal: 'malformed' });
    expect(checkCallback(input('not json', undefined))).toMatchObject({ ok: false, refusal: 'malformed' });
  });
});
