import type { Column, Webhook } from '../contract/index.js';
import type { PreflightFacts } from '../plan/preflight-facts.js';

/**
 * The pre-flight's facts for rows about sheets and webhooks only, from what a migration read itself: so its rows are
 * judged by the pre-flight's own rules (classify-resource-row.ts) without reading the columns or webhooks twice.
 */
export function resourceFacts(read: { columns?: ReadonlyMap<number, readonly Column[] | 'not-found'>; webhooks?: ReadonlyMap<number, Webhook> }): PreflightFacts {
  return {
    caller: { id: 0, email: '' },
    usersByEmail: new Map(),
    usersById: new Map(),
    seats: new Map(),
    alternates: new Map(),
    columns: read.columns ?? new Map(),
    webhooks: read.webhooks,
    protectedAccounts: new Set(),
    groupsOwned: new Map(),
  };
}
