import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import { columnKey, newColumnKey, sheetKey, webhookKey } from '../ledger/change-of-row.js';
import { emailKey, userKey } from '../ledger/promise.js';
import type { Identities } from './identities.js';

/**
 * Changes the service makes on its own, that nobody promised or broke: a provisional seat expiring on its clock, and
 * a webhook it marks DISABLED_VERIFICATION_FAILED when its verification call fails (the answer to an enable that
 * did not enable; the row says so).
 */
export function isServiceOwn(mutation: Mutation): boolean {
  if (mutation.operation === 'provisionalSeatExpired') return true;
  return mutation.operation === 'updateWebhook' && mutation.summary.endsWith(': DISABLED_VERIFICATION_FAILED');
}

/** A change made outside seatflow: in the Admin Center or by an identity provider (the simulation's other admins). */
export function isOutside(mutation: Mutation): boolean {
  return mutation.via === 'admin-center' || mutation.via === 'identity-provider';
}

/**
 * The operation a promise would name this change by: an Admin Center seat change is an upgrade to a Member seat or a
 * downgrade from one (what a row of seatflow's finds done afterwards).
 */
export function promisedOperationOf(mutation: Mutation): string {
  if (mutation.operation === 'provisionalSeatExpired') return 'downgradeUser';
  if (mutation.operation === 'changeSeat') return / → MEMBER\b/.test(mutation.summary) ? 'upgradeUser' : 'downgradeUser';
  return mutation.operation;
}

/** Every key a promise may name this change by: the user's id and e-mail, a column, a sheet, a webhook. */
export function subjectsOf(mutation: Mutation, identities: Identities): string[] {
  const keys: string[] = [];
  if (mutation.userId !== undefined) {
    keys.push(userKey(mutation.userId));
    const email = identities.emailOf(mutation.userId);
    if (email !== undefined) keys.push(emailKey(email));
  }
  switch (mutation.resourceType) {
    case 'column': {
      keys.push(columnKey(mutation.resourceId));
      const added = /^added column "(.*)" \(\w+\) to sheet (\d+)$/.exec(mutation.summary);
      if (added !== null) keys.push(newColumnKey(added[2]!, added[1]!));
      break;
    }
    case 'discussion': {
      const sheet = /discussion on sheet (\d+)/.exec(mutation.summary);
      if (sheet !== null) keys.push(sheetKey(sheet[1]!));
      break;
    }
    case 'webhook':
      keys.push(webhookKey(mutation.resourceId));
      break;
  }
  return keys;
}
