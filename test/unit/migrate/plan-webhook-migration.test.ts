import { describe, expect, it } from 'vitest';
import type { SmartsheetApi } from '../../../src/client/smartsheet-api.js';
import type { Webhook } from '../../../src/contract/index.js';
import { planWebhookMigration, type WebhookMigrationRequest } from '../../../src/migrate/plan-webhook-migration.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-12-01T00:00:00Z');
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

/** Only what the planner reads: the webhooks the token sees. */
function apiWith(webhooks: Webhook[]): SmartsheetApi {
  const none = {};
  return {
    users: none,
    alternateEmails: none,
    discussions: none,
    columns: none,
    sheets: none,
    webhooks: {
      async *list() {
        yield* webhooks;
      },
    },
  } as unknown as SmartsheetApi;
}

const plan = (webhooks: Webhook[], request: WebhookMigrationRequest) => planWebhookMigration({ api: apiWith(webhooks), request, guardrails: { destructiveMaxCount: 100, destructiveMaxShare: 1 }, nowMs: NOW });

describe('planWebhookMigration', () => {
  it('disables the enabled webhooks whose last callback is older than the limit, from their stats', async () => {
    const webhooks: Webhook[] = [
      { id: 1, name: 'busy', enabled: true, status: 'ENABLED', stats: { lastCallbackAttempt: ago(2) } },
      { id: 2, name: 'stale', enabled: true, status: 'ENABLED', stats: { lastCallbackAttempt: ago(45), lastSuccessfulCallback: ago(50) } },
      { id: 3, name: 'never called', enabled: true, status: 'ENABLED', createdAt: ago(90), stats: {} },
      { id: 4, name: 'no stats', enabled: true, status: 'ENABLED', createdAt: ago(90) },
      { id: 5, name: 'already off', enabled: false, status: 'DISABLED_BY_OWNER', stats: { lastCallbackAttempt: ago(400) } },
      { id: 6, name: 'epoch ms', enabled: true, status: 'ENABLED', stats: { lastCallbackAttempt: NOW - 31 * DAY } },
    ];
    const planned = await plan(webhooks, { mode: 'disable-unused', days: 30 });
    expect(Array.from(planned.plan.rows, (row) => [row.action?.action, row.target.webhookId, row.verdict])).toEqual([
      ['disable-webhook', 2, 'change'],
      ['disable-webhook', 3, 'change'],
      ['disable-webhook', 6, 'change'],
    ]);
    expect(planned.plan.rows.at(1)?.reason).toMatch(/no callback since it was created/);
    expect(planned.plan.notes?.[0]).toMatch(/^1 enabled webhook \(4\) carry no callback times/);
    // Turning a webhook off is undone by turning it on: not destructive, no guardrail confirmation.
    expect(planned.guardrails.destructiveCount).toBe(0);
  });

  it('re-points the URLs on the old prefix, verifying again those that were on or whose verification failed', async () => {
    const webhooks: Webhook[] = [
      { id: 1, callbackUrl: 'https://old.acme.example/hooks/a', enabled: true, status: 'ENABLED' },
      { id: 2, callbackUrl: 'https://old.acme.example/hooks/b', enabled: false, status: 'DISABLED_VERIFICATION_FAILED' },
      { id: 3, callbackUrl: 'https://old.acme.example/hooks/c', enabled: false, status: 'DISABLED_BY_OWNER' },
      { id: 4, callbackUrl: 'https://elsewhere.example/hooks', enabled: true, status: 'ENABLED' },
      { id: 5, callbackUrl: 'https://new.acme.io/hooks/e', enabled: true, status: 'ENABLED' },
    ];
    const planned = await plan(webhooks, { mode: 'repoint', from: 'https://old.acme.example/hooks', to: 'https://new.acme.io/hooks' });
    expect(Array.from(planned.plan.rows, (row) => row.action)).toEqual([
      { action: 'update-webhook', webhookId: 1, callbackUrl: 'https://new.acme.io/hooks/a', enabled: true },
      { action: 'update-webhook', webhookId: 2, callbackUrl: 'https://new.acme.io/hooks/b', enabled: true },
      { action: 'update-webhook', webhookId: 3, callbackUrl: 'https://new.acme.io/hooks/c' },
    ]);
    expect(planned.plan.rows.at(2)?.reason).toMatch(/stays off \(DISABLED_BY_OWNER\)/);
  });

  it('rotates every secret into the one file, and re-points a webhook that cannot be enabled again without turning it on', async () => {
    const webhooks: Webhook[] = [
      { id: 7, name: 'feed', enabled: true, status: 'ENABLED' },
      { id: 8, callbackUrl: 'https://old.acme.example/x', enabled: false, status: 'DISABLED_APP_REVOKED' },
    ];
    const rotated = await plan(webhooks, { mode: 'rotate-secrets', secretsTo: '/srv/secrets/webhooks.jsonl' });
    expect(Array.from(rotated.plan.rows, (row) => row.action)).toEqual([7, 8].map((webhookId) => ({ action: 'reset-webhook-secret', webhookId, secretTo: '/srv/secrets/webhooks.jsonl' })));
    const revoked = await plan([{ ...webhooks[1]!, status: 'DISABLED_VERIFICATION_FAILED' }, { id: 9, callbackUrl: 'https://old.acme.example/y', enabled: false, status: 'DISABLED_ADMINISTRATIVE' }], { mode: 'repoint', from: 'https://old.acme.example', to: 'https://new.acme.io' });
    expect(Array.from(revoked.plan.rows, (row) => row.verdict)).toEqual(['change', 'change']);
    expect(revoked.plan.rows.at(1)?.action).toEqual({ action: 'update-webhook', webhookId: 9, callbackUrl: 'https://new.acme.io/y' });
  });
});
