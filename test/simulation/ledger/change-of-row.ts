import { emailKey, userKey, type ChangeKey } from './promise.js';

/** A row of a plan as seatflow shows it (POST /v1/plans, the submit answer, `plan --json`): what the oracle reads. */
export interface ShownRow {
  row: number;
  actionName: string;
  verdict: string;
  rule?: string;
  errorCode?: number;
  action?: Record<string, unknown>;
  target?: { userId?: number; email?: string; columnId?: number; sheetId?: number; webhookId?: number };
}

/** The mutation log's operation for each manifest action (src/server/routes), and what it is about. */
const OPERATIONS: Record<string, { operation: string; subject: 'user' | 'new-user' | 'column' | 'new-column' | 'sheet' | 'webhook' }> = {
  add: { operation: 'addUser', subject: 'new-user' },
  update: { operation: 'updateUser', subject: 'user' },
  deactivate: { operation: 'deactivateUser', subject: 'user' },
  reactivate: { operation: 'reactivateUser', subject: 'user' },
  remove: { operation: 'removeUser', subject: 'user' },
  downgrade: { operation: 'downgradeUser', subject: 'user' },
  upgrade: { operation: 'upgradeUser', subject: 'user' },
  'remove-from-plan': { operation: 'removeUserFromPlan', subject: 'user' },
  'add-alternate-email': { operation: 'addAlternateEmail', subject: 'user' },
  'delete-alternate-email': { operation: 'deleteAlternateEmail', subject: 'user' },
  'make-alternate-email-primary': { operation: 'makeAlternateEmailPrimary', subject: 'user' },
  'set-profile-image': { operation: 'addProfileImage', subject: 'user' },
  'add-column': { operation: 'addColumns', subject: 'new-column' },
  'update-column': { operation: 'updateColumn', subject: 'column' },
  'delete-column': { operation: 'deleteColumn', subject: 'column' },
  'create-discussion': { operation: 'createDiscussion', subject: 'sheet' },
  'enable-webhook': { operation: 'updateWebhook', subject: 'webhook' },
  'disable-webhook': { operation: 'updateWebhook', subject: 'webhook' },
  'reset-webhook-secret': { operation: 'resetSharedSecret', subject: 'webhook' },
  'delete-webhook': { operation: 'deleteWebhook', subject: 'webhook' },
};

/** The change a row to be changed promises, or undefined when the oracle cannot name it (then the caller says so). */
export function changeOfRow(row: ShownRow): ChangeKey | undefined {
  const known = OPERATIONS[row.actionName];
  if (known === undefined) return undefined;
  const target = row.target ?? {};
  const action = row.action ?? {};
  const sheetId = target.sheetId ?? numberOf(action.sheetId);
  switch (known.subject) {
    case 'user':
      return target.userId === undefined ? undefined : { operation: known.operation, subject: userKey(target.userId) };
    case 'new-user': {
      const email = target.email ?? (action.user as { email?: string } | undefined)?.email;
      return email === undefined ? undefined : { operation: known.operation, subject: emailKey(email) };
    }
    case 'column':
      return target.columnId === undefined ? undefined : { operation: known.operation, subject: columnKey(target.columnId) };
    case 'new-column':
      return sheetId === undefined || typeof action.title !== 'string' ? undefined : { operation: known.operation, subject: newColumnKey(sheetId, action.title) };
    case 'sheet':
      return sheetId === undefined ? undefined : { operation: known.operation, subject: sheetKey(sheetId) };
    case 'webhook':
      return target.webhookId === undefined ? undefined : { operation: known.operation, subject: webhookKey(target.webhookId) };
  }
}

export const columnKey = (id: number | string): string => `column:${id}`;
export const newColumnKey = (sheetId: number | string, title: string): string => `new-column:${sheetId}:${title}`;
export const sheetKey = (id: number | string): string => `sheet:${id}`;
export const webhookKey = (id: number | string): string => `webhook:${id}`;

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}
