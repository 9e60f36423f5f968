import type { Column, Webhook } from '../contract/index.js';
import type { Action, ActionOf } from '../manifest/action.js';
import type { Classification } from './planned-row.js';
import type { PreflightFacts } from './preflight-facts.js';
import { RULES } from './planned-row.js';

type ColumnAction = ActionOf<'add-column' | 'update-column' | 'delete-column'>;
type WebhookAction = ActionOf<'enable-webhook' | 'disable-webhook' | 'reset-webhook-secret' | 'delete-webhook' | 'update-webhook'>;
const SPECIAL_TAGS = /^(GANTT|CALENDAR|BASELINE)_/;
/** Webhook states that cannot be enabled again (docs/service.md#webhooks: 1153, 1154). */
const TERMINAL = new Set(['DISABLED_APP_REVOKED', 'DISABLED_ADMINISTRATIVE']);

/** Classifies rows about sheets (columns, discussions) and webhooks, from facts already read. */
export function classifyResourceRow(action: Exclude<Action, { user: unknown }>, facts: PreflightFacts): Classification {
  if ('webhookId' in action) return webhook(action, facts);
  const columns = facts.columns.get(action.sheetId);
  const target = { sheetId: action.sheetId };
  if (columns === undefined || columns === 'not-found') {
    return { verdict: 'not-found', rule: RULES.sheetNotFound, reason: `sheet ${action.sheetId} is not visible to this token`, target };
  }
  if (action.action === 'create-discussion') return { verdict: 'change', target };
  return column(action, columns, target);
}

function column(action: ColumnAction, columns: readonly Column[], target: { sheetId: number }): Classification {
  if (action.action === 'add-column') {
    const same = columns.find((c) => c.title.toLowerCase() === action.title.toLowerCase());
    if (same === undefined) {
      // A new column goes at a position 0..columns (after the last at most); the service answers 1031 otherwise.
      if (action.index > columns.length) return indexOutOfRange(action.index, columns.length, target);
      return { verdict: 'change', target };
    }
    if (same.type === action.type) return { verdict: 'no-op', reason: `column "${same.title}" already exists`, target: { ...target, columnId: same.id } };
    return { verdict: 'conflict', rule: RULES.alreadyExists, reason: `column "${same.title}" exists with type ${same.type}`, target: { ...target, columnId: same.id } };
  }
  const found = action.columnId !== undefined
    ? columns.find((c) => c.id === action.columnId)
    : columns.find((c) => c.title.toLowerCase() === action.columnTitle!.toLowerCase());
  const name = action.columnId !== undefined ? `column ${action.columnId}` : `column "${action.columnTitle}"`;
  if (found === undefined) {
    return action.action === 'delete-column'
      ? { verdict: 'no-op', reason: `${name} is not in the sheet`, target }
      : { verdict: 'not-found', reason: `${name} is not in the sheet`, target };
  }
  const located = { ...target, columnId: found.id };
  if (action.action === 'delete-column') {
    if (found.primary === true) return { verdict: 'refused', rule: RULES.primaryColumn, reason: 'the primary column cannot be deleted', target: located };
    return { verdict: 'change', target: located };
  }
  const taken = action.title === undefined ? undefined : columns.find((c) => c.id !== found.id && c.title.toLowerCase() === action.title!.toLowerCase());
  if (taken !== undefined) {
    return { verdict: 'refused', rule: RULES.columnTitleTaken, reason: `another column of the sheet is already titled "${taken.title}"; titles are unique (1056)`, target: located };
  }
  // Moving a column: positions 0..columns-1 (1031 otherwise).
  if (action.index !== undefined && action.index >= columns.length) return indexOutOfRange(action.index, columns.length - 1, located);
  const changesType = action.type !== undefined && action.type !== found.type;
  if (changesType && found.primary === true) {
    return { verdict: 'refused', rule: RULES.primaryColumn, reason: 'the type of the primary column cannot change', target: located };
  }
  const changing: string[] = (['title', 'type', 'index', 'symbol', 'systemColumnType', 'width', 'hidden', 'locked', 'validation', 'description', 'formula'] as const)
    .filter((field) => action[field] !== undefined && action[field] !== found[field]);
  if (action.options !== undefined && action.options.join('\u0000') !== (found.options ?? []).join('\u0000')) changing.push('options');
  if (changing.length === 0) return { verdict: 'no-op', reason: 'the column already looks like that', target: located };
  const schedule = (found.tags ?? []).some((tag) => SPECIAL_TAGS.test(tag));
  if (changesType && schedule && hasDependencies(columns)) {
    return { verdict: 'refused', rule: RULES.ganttColumn, reason: `"${found.title}" is a Gantt/calendar column and the sheet has dependencies on (it has a predecessor column): the service refuses its type change until they are off`, target: located };
  }
  const caution = changesType && schedule
    ? '; a Gantt/calendar column: the service refuses the type change while dependencies are on'
    : changesType ? `; converts every cell of "${found.title}" from ${found.type} to ${action.type ?? ''}` : '';
  return { verdict: 'change', reason: `sets ${changing.join(', ')}${caution}`, target: located };
}

/**
 * Whether dependencies are on: the column list does not say it, but turning them on gives the sheet its predecessor
 * column (type PREDECESSOR, tag GANTT_PREDECESSOR), which only exists with them (docs/service.md#columns).
 */
function hasDependencies(columns: readonly Column[]): boolean {
  return columns.some((c) => c.type === 'PREDECESSOR' || (c.tags ?? []).includes('GANTT_PREDECESSOR'));
}

function indexOutOfRange(index: number, highest: number, target: Classification['target']): Classification {
  return { verdict: 'refused', rule: RULES.columnIndexOutOfRange, reason: `index ${index} is beyond the sheet's columns: the highest index here is ${highest} (1031)`, target };
}

function webhook(action: WebhookAction, facts: PreflightFacts): Classification {
  const target = { webhookId: action.webhookId };
  const hook = facts.webhooks?.get(action.webhookId);
  if (hook === undefined) {
    return { verdict: 'not-found', rule: RULES.webhookNotOwned, reason: `webhook ${action.webhookId} does not exist or belongs to another token`, target };
  }
  if (action.action === 'enable-webhook') {
    if (hook.enabled === true) return { verdict: 'no-op', reason: 'already enabled', target };
    if (hook.status !== undefined && TERMINAL.has(hook.status)) {
      return { verdict: 'refused', rule: RULES.webhookTerminal, reason: `status ${hook.status} cannot be enabled again`, target };
    }
    return { verdict: 'change', reason: 'the callback URL must answer the verification challenge', target };
  }
  if (action.action === 'disable-webhook' && hook.enabled === false) return { verdict: 'no-op', reason: `already disabled (${hook.status ?? ''})`, target };
  if (action.action === 'update-webhook') return updateWebhook(action, hook, target);
  return { verdict: 'change', target };
}

function updateWebhook(action: ActionOf<'update-webhook'>, hook: Webhook, target: Classification['target']): Classification {
  const changing = (['callbackUrl', 'name', 'enabled'] as const).filter((field) => action[field] !== undefined && action[field] !== hook[field]);
  if (changing.length === 0) return { verdict: 'no-op', reason: 'the webhook already looks like that', target };
  if (action.enabled === true && hook.enabled !== true && hook.status !== undefined && TERMINAL.has(hook.status)) {
    return { verdict: 'refused', rule: RULES.webhookTerminal, reason: `status ${hook.status} cannot be enabled again`, target };
  }
  const verify = action.enabled === true && (changing.includes('callbackUrl') || changing.includes('enabled')) ? '; the service verifies the callback URL (the subscriber must answer its challenge) or leaves the webhook disabled' : '';
  return { verdict: 'change', reason: `sets ${changing.join(', ')}${verify}`, target };
}
