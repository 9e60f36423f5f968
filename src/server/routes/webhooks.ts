import { randomBytes } from 'node:crypto';
import type { Webhook } from '../../contract/index.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { isSystemAdmin } from '../http/authenticate.js';
import type { DateFormat } from '../http/date-format.js';
import { readPaging } from '../http/paging.js';
import { pathId } from '../http/query.js';
import type { RouteContext, RouteDef } from '../server-context.js';
import { listWebhooks, ownsWebhook } from '../rules/webhook-listing.js';
import type { WebhookCallbackStats, WebhookRecord } from '../state/records.js';
import { isLoopbackHost, verifyCallback } from '../webhooks/verify-callback.js';
import { accessLevelOf, bodyBool, bodyObject, bodyString, success } from './route-helpers.js';

export function newSharedSecret(): string {
  return randomBytes(16).toString('hex');
}

function webhookView(ctx: RouteContext, webhook: WebhookRecord, dates: DateFormat): Webhook {
  const view: Webhook = {
    id: webhook.id,
    name: webhook.name,
    callbackUrl: webhook.callbackUrl,
    scope: webhook.scope,
    scopeObjectId: webhook.scopeObjectId,
    events: [...webhook.events],
    version: webhook.version,
    enabled: webhook.enabled,
    status: webhook.status,
    sharedSecret: webhook.sharedSecret,
    createdAt: dates(webhook.createdAt),
    modifiedAt: dates(webhook.modifiedAt),
  };
  if (webhook.disabledDetails !== undefined && !webhook.enabled) view.disabledDetails = webhook.disabledDetails;
  if (webhook.owner.kind === 'app') {
    view.apiClientId = webhook.owner.appId;
    view.apiClientName = ctx.server.state.apps.get(webhook.owner.appId)?.name ?? webhook.owner.appId;
  }
  if (webhook.subscope !== undefined) view.subscope = { ...webhook.subscope };
  if (webhook.customHeaders !== undefined) view.customHeaders = { ...webhook.customHeaders };
  if (webhook.stats !== undefined) view.stats = statsView(webhook.stats, dates);
  return view;
}

function statsView(stats: WebhookCallbackStats, dates: DateFormat): NonNullable<Webhook['stats']> {
  const view: NonNullable<Webhook['stats']> = {};
  if (stats.lastCallbackAttempt !== undefined) view.lastCallbackAttempt = dates(stats.lastCallbackAttempt);
  if (stats.lastCallbackAttemptRetryCount !== undefined) view.lastCallbackAttemptRetryCount = stats.lastCallbackAttemptRetryCount;
  if (stats.lastSuccessfulCallback !== undefined) view.lastSuccessfulCallback = dates(stats.lastSuccessfulCallback);
  return view;
}

function requireWebhook(ctx: RouteContext): WebhookRecord {
  const webhook = ctx.server.state.webhooks.get(pathId(ctx.params.webhookId));
  if (webhook === undefined || !ownsWebhook(ctx.principal, webhook)) throw ApiError.notFound('Webhook not found.');
  return webhook;
}

/** https, or http to a loopback address (allowed by the reference server only, so local subscribers can be tested). */
function checkCallbackUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw ApiError.badRequest(CODES.invalidAttributeValue, 'callbackUrl is not a valid URL.');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw ApiError.badRequest(CODES.webhookCallbackNotHttps, 'callbackUrl must be an https URL.');
}

function create(ctx: RouteContext): unknown {
  const { state, clock, mutations } = ctx.server;
  const body = bodyObject(ctx);
  const name = bodyString(body, 'name');
  const callbackUrl = bodyString(body, 'callbackUrl');
  const scope = bodyString(body, 'scope')?.toLowerCase();
  const events = body.events;
  const missing = [
    name === undefined || name === '' ? 'name' : '',
    callbackUrl === undefined || callbackUrl === '' ? 'callbackUrl' : '',
    scope === undefined ? 'scope' : '',
    body.scopeObjectId === undefined ? 'scopeObjectId' : '',
    !Array.isArray(events) || events.length === 0 ? 'events' : '',
  ].filter((m) => m !== '');
  if (missing.length > 0) throw ApiError.badRequest(CODES.requiredAttributeMissing, `Required object attribute(s) are missing: ${missing.join(', ')}`);
  if (scope !== 'sheet' && scope !== 'plan') throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid scope: ${scope}`);
  checkCallbackUrl(callbackUrl as string);
  const scopeObjectId = Number(body.scopeObjectId);
  const eventList = (events as unknown[]).map(String);
  if (scope === 'sheet') {
    const sheet = state.sheets.get(scopeObjectId);
    // An unknown scope object is 400/1151, as the webhook-errors page says (docs/service.md#webhooks).
    if (sheet === undefined || accessLevelOf(sheet, ctx.principal.user) === undefined) {
      throw ApiError.badRequest(CODES.webhookScopeNotFound, `Scope 'sheet', object id ${scopeObjectId} was not found.`);
    }
    if (eventList.some((e) => e !== '*.*')) throw ApiError.badRequest(CODES.invalidAttributeValue, 'Sheet webhooks accept only "*.*" events.');
  } else {
    if (!state.plans.has(scopeObjectId)) throw ApiError.badRequest(CODES.webhookScopeNotFound, `Scope 'plan', object id ${scopeObjectId} was not found.`);
    if (!isSystemAdmin(ctx.principal)) throw ApiError.forbidden('Plan webhooks require System Admin.');
  }
  const now = clock.now();
  const webhook: WebhookRecord = {
    id: state.ids.next(),
    name: name as string,
    callbackUrl: callbackUrl as string,
    scope,
    scopeObjectId,
    events: eventList,
    version: typeof body.version === 'number' ? body.version : 1,
    enabled: false,
    status: 'NEW_NOT_VERIFIED',
    sharedSecret: newSharedSecret(),
    owner: ctx.principal.appId === undefined ? { kind: 'user', userId: ctx.principal.user.id } : { kind: 'app', appId: ctx.principal.appId },
    createdAt: now,
    modifiedAt: now,
  };
  if (scope === 'sheet' && body.subscope !== undefined && body.subscope !== null) webhook.subscope = body.subscope as { columnIds?: number[] };
  if (scope === 'plan' && body.customHeaders !== undefined && body.customHeaders !== null) webhook.customHeaders = body.customHeaders as Record<string, string>;
  state.webhooks.set(webhook.id, webhook);
  mutations.record({ operation: 'createWebhook', resourceType: 'webhook', resourceId: webhook.id, summary: `created webhook "${webhook.name}" on ${scope} ${scopeObjectId}` });
  return success(webhookView(ctx, webhook, ctx.dates));
}

async function update(ctx: RouteContext): Promise<unknown> {
  const { clock, mutations, settings } = ctx.server;
  const webhook = requireWebhook(ctx);
  const body = bodyObject(ctx);
  const name = bodyString(body, 'name');
  const callbackUrl = bodyString(body, 'callbackUrl');
  const enabled = bodyBool(body, 'enabled');
  if (callbackUrl !== undefined) checkCallbackUrl(callbackUrl);
  if (enabled === true && webhook.status === 'DISABLED_APP_REVOKED') {
    throw new ApiError(403, CODES.webhookAppRevoked, 'The app that owns this webhook was revoked; it cannot be enabled.');
  }
  if (enabled === true && webhook.status === 'DISABLED_ADMINISTRATIVE') {
    throw new ApiError(403, CODES.webhookDisabledAdministratively, 'This webhook was disabled by Smartsheet; contact support.');
  }
  const urlChanged = callbackUrl !== undefined && callbackUrl !== webhook.callbackUrl;
  if (name !== undefined) webhook.name = name;
  if (callbackUrl !== undefined) webhook.callbackUrl = callbackUrl;
  if (Array.isArray(body.events)) webhook.events = body.events.map(String);
  if (typeof body.version === 'number') webhook.version = body.version;
  if (webhook.scope === 'plan' && body.customHeaders !== undefined && body.customHeaders !== null) {
    webhook.customHeaders = body.customHeaders as Record<string, string>;
  }
  if (enabled === true && (!webhook.enabled || urlChanged)) {
    // The PUT is held until verification ends (docs/service.md#webhooks).
    const outcome = await verifyCallback(webhook, settings.verificationTimeoutMs);
    webhook.enabled = outcome.ok;
    webhook.status = outcome.ok ? 'ENABLED' : 'DISABLED_VERIFICATION_FAILED';
    if (outcome.ok) delete webhook.disabledDetails;
    else webhook.disabledDetails = outcome.detail;
  } else if (enabled === false && webhook.enabled) {
    webhook.enabled = false;
    webhook.status = 'DISABLED_BY_OWNER';
  }
  webhook.modifiedAt = clock.now();
  mutations.record({ operation: 'updateWebhook', resourceType: 'webhook', resourceId: webhook.id, summary: `updated webhook "${webhook.name}": ${webhook.status}` });
  return success(webhookView(ctx, webhook, ctx.dates));
}

function list(ctx: RouteContext): unknown {
  const { state, clock, settings } = ctx.server;
  const owned = [...state.webhooks.values()].filter((w) => ownsWebhook(ctx.principal, w));
  const appName = (w: WebhookRecord): string => (w.owner.kind === 'app' ? (state.apps.get(w.owner.appId)?.name ?? '') : '');
  return listWebhooks(owned, appName, readPaging(ctx.query), clock.now(), settings.webhookSunsetAt, (w) => webhookView(ctx, w, ctx.dates));
}

export const webhookRoutes: RouteDef[] = [
  { method: 'GET', path: '/webhooks', operation: 'listWebhooks', handle: list },
  { method: 'GET', path: '/webhooks/:webhookId', operation: 'getWebhook', handle: (ctx) => webhookView(ctx, requireWebhook(ctx), ctx.dates) },
  { method: 'POST', path: '/webhooks', operation: 'createWebhook', handle: create },
  { method: 'PUT', path: '/webhooks/:webhookId', operation: 'updateWebhook', handle: update },
  {
    method: 'DELETE',
    path: '/webhooks/:webhookId',
    operation: 'deleteWebhook',
    handle: (ctx) => {
      const webhook = requireWebhook(ctx);
      ctx.server.state.webhooks.delete(webhook.id);
      ctx.server.mutations.record({ operation: 'deleteWebhook', resourceType: 'webhook', resourceId: webhook.id, summary: `deleted webhook "${webhook.name}"` });
      return success();
    },
  },
  {
    method: 'POST',
    path: '/webhooks/:webhookId/resetsharedsecret',
    operation: 'resetSharedSecret',
    handle: (ctx) => {
      const webhook = requireWebhook(ctx);
      webhook.sharedSecret = newSharedSecret();
      webhook.modifiedAt = ctx.server.clock.now();
      ctx.server.mutations.record({ operation: 'resetSharedSecret', resourceType: 'webhook', resourceId: webhook.id, summary: `reset the shared secret of "${webhook.name}"` });
      return success({ sharedSecret: webhook.sharedSecret });
    },
  },
];
