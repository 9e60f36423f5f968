import type { SmartsheetApi } from '../src/client/smartsheet-api.js';
import type { AlternateEmail, Column, SeatType, User } from '../src/contract/index.js';
import type { UserRef } from '../src/manifest/action.js';
import type { JobContext } from '../src/queue/job-type.js';
import { SEAT_EVENTS, type ReportedByEvents } from '../src/queue/events-since-attempt.js';
import { callOptions, missingArgument, notFound } from './job-support.js';
import { sameSeatType } from '../src/contract/index.js';

/**
 * Ids a job needs. The pre-flight resolves them in bulk and puts them in `context.target`; these functions take them
 * from there, then from the row itself, and only as a last resort look them up (one call), so that a job built from
 * a row the pre-flight did not see still works.
 */

type Signal = { signal: AbortSignal };

/** The user with this primary e-mail, or undefined (list users with an `email=` filter: one call). */
export async function findUserByEmail(api: SmartsheetApi, email: string, context: Signal): Promise<User | undefined> {
  const page = await api.users.listPage({ ...callOptions(context), email: [email] });
  const wanted = email.toLowerCase();
  return page.data.find((user) => user.email.toLowerCase() === wanted);
}

async function userIdOfRef(api: SmartsheetApi, ref: UserRef, context: Signal, role: string): Promise<number> {
  if ('userId' in ref) return ref.userId;
  const user = await findUserByEmail(api, ref.email, context);
  if (user === undefined) throw notFound('users.list', `${role} ${ref.email} is not a user of the organization`);
  return user.id;
}

/** The row's user: the pre-flight's id, the row's userId, or a lookup of the row's e-mail. */
export async function resolveUserId(context: JobContext & { action: { user: UserRef } }): Promise<number> {
  return context.target.userId ?? (await userIdOfRef(context.api, context.action.user, context, 'user'));
}

/** The transfer target of a remove row, when it names one. */
export async function resolveTransferToId(
  context: JobContext & { action: { transferTo?: UserRef | undefined } },
): Promise<number | undefined> {
  if (context.target.transferToUserId !== undefined) return context.target.transferToUserId;
  const ref = context.action.transferTo;
  return ref === undefined ? undefined : userIdOfRef(context.api, ref, context, 'transfer target');
}

/** Seat types are compared with VIEWER and CONTRIBUTOR as one seat (VIEWER is CONTRIBUTOR's retired name). */
export function sameSeat(a: SeatType | undefined, b: SeatType | undefined): boolean {
  return sameSeatType(a, b);
}

/** The user's seat in a plan, or undefined when the user is not in that plan. A missing user is a 404 (propagates). */
export async function seatInPlan(api: SmartsheetApi, userId: number, planId: number, context: Signal) {
  for await (const plan of api.users.listPlans(userId, callOptions(context))) {
    if (plan.planId === planId) return plan;
  }
  return undefined;
}

/**
 * The plan a seat action applies to: the pre-flight's, the row's, or the user's only plan. A user in several plans
 * and no plan named is refused rather than guessed.
 */
export async function resolvePlanId(
  context: JobContext & { action: { planId?: number | undefined } },
  userId: number,
): Promise<number> {
  const known = context.target.planId ?? context.action.planId;
  if (known !== undefined) return known;
  const plans: number[] = [];
  for await (const plan of context.api.users.listPlans(userId, callOptions(context))) plans.push(plan.planId);
  if (plans.length === 1 && plans[0] !== undefined) return plans[0];
  throw missingArgument(
    'users.listPlans',
    plans.length === 0 ? `user ${userId} is in no plan` : `user ${userId} is in ${plans.length} plans; name planId in the row`,
  );
}

/**
 * The events an upgrade's or a downgrade's change shows as: the seat it gives in its plan. Undefined when the plan is
 * only known by a call (a user in one plan, named in neither the row nor the plan): the events cannot be told apart.
 */
export function seatChangeEvents(context: JobContext & { action: { planId?: number | undefined; seatType: SeatType } }): ReportedByEvents | undefined {
  const planId = context.target.planId ?? context.action.planId;
  return planId === undefined ? undefined : { change: SEAT_EVENTS, sameAttribute: SEAT_EVENTS, seat: { planId, seatType: context.action.seatType } };
}

/** The user's alternate address equal to `email` (case-insensitive), if any. */
export async function findAlternateEmail(
  api: SmartsheetApi,
  userId: number,
  email: string,
  context: Signal,
): Promise<AlternateEmail | undefined> {
  const wanted = email.toLowerCase();
  for await (const alternate of api.alternateEmails.list(userId, callOptions(context))) {
    if (alternate.email.toLowerCase() === wanted) return alternate;
  }
  return undefined;
}

/** Every column of a sheet; `level: 2` so MULTI_* types are reported as themselves. A missing sheet is a 404. */
export async function listColumns(api: SmartsheetApi, sheetId: number, context: Signal): Promise<Column[]> {
  const columns: Column[] = [];
  for await (const column of api.columns.list(sheetId, { ...callOptions(context), level: 2 })) columns.push(column);
  return columns;
}

/**
 * The column a row names: the pre-flight's id, the row's columnId, or the column with the row's columnTitle.
 * `renamedTo`: a rename row's new title, tried second, so that a retry after a rename that went through still finds
 * the column.
 */
export async function resolveColumnId(
  context: JobContext & { action: { sheetId: number; columnId?: number | undefined; columnTitle?: string | undefined } },
  renamedTo?: string,
): Promise<number> {
  const known = context.target.columnId ?? context.action.columnId;
  if (known !== undefined) return known;
  const title = context.action.columnTitle;
  if (title === undefined) throw missingArgument('columns.list', 'the row names neither columnId nor columnTitle');
  const sheetId = context.target.sheetId ?? context.action.sheetId;
  const columns = await listColumns(context.api, sheetId, context);
  const column = columns.find((c) => c.title === title) ?? (renamedTo === undefined ? undefined : columns.find((c) => c.title === renamedTo));
  if (column === undefined) throw notFound('columns.list', `sheet ${sheetId} has no column titled "${title}"`);
  return column.id;
}

/** The alternate e-mail a row names: the pre-flight's id, or one listing of the user's alternate addresses. */
export async function resolveAlternateEmailId(
  context: JobContext & { action: { alternateEmail: string } },
  userId: number,
): Promise<number> {
  if (context.target.alternateEmailId !== undefined) return context.target.alternateEmailId;
  const found = await findAlternateEmail(context.api, userId, context.action.alternateEmail, context);
  if (found === undefined) throw notFound('alternateEmails.list', `${context.action.alternateEmail} is not an alternate e-mail of user ${userId}`);
  return found.id;
}
