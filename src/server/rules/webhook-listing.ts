import type { IndexResult } from '../../contract/index.js';
import { paginate, type PageRequest } from '../http/paging.js';
import type { Principal } from '../server-context.js';
import type { WebhookRecord } from '../state/records.js';

/** The date from which list webhooks follows the new rules (docs/service.md#webhooks). */
export const WEBHOOK_LIST_SUNSET = Date.parse('2026-06-03T00:00:00Z');
export const WEBHOOK_PAGE_SIZE_CAP = 10_000;

/** A user-generated token sees the webhooks it owns; an app token those of its app (docs/service.md#webhooks). */
export function ownsWebhook(principal: Principal, webhook: WebhookRecord): boolean {
  return principal.appId === undefined
    ? webhook.owner.kind === 'user' && webhook.owner.userId === principal.user.id
    : webhook.owner.kind === 'app' && webhook.owner.appId === principal.appId;
}

/**
 * List webhooks. Before the sunset: sorted by API client name, webhook name, then creation date, with the usual
 * paging. From the sunset (by the server's clock): includeAll ignored, pageSize capped at 10,000, totals -1, newest
 * first. `owned` must be in creation order.
 */
export function listWebhooks<R>(
  owned: readonly WebhookRecord[],
  appName: (webhook: WebhookRecord) => string,
  paging: PageRequest,
  now: number,
  sunsetAt: number,
  view: (webhook: WebhookRecord) => R,
): IndexResult<R> {
  // `owned` comes in creation order; ids are random, so webhooks created in the same millisecond keep that order
  // (the sort is stable) rather than being ordered by id.
  if (now < sunsetAt) {
    const sorted = [...owned].sort((a, b) => appName(a).localeCompare(appName(b)) || a.name.localeCompare(b.name) || a.createdAt - b.createdAt);
    return paginate(sorted, paging, view);
  }
  const sorted = [...owned].reverse().sort((a, b) => b.createdAt - a.createdAt);
  const pageSize = Math.min(paging.pageSize, WEBHOOK_PAGE_SIZE_CAP);
  const start = (paging.page - 1) * pageSize;
  return {
    pageNumber: paging.page,
    pageSize,
    totalPages: -1,
    totalCount: -1,
    data: sorted.slice(start, start + pageSize).map(view),
  };
}
