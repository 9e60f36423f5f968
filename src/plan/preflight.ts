import { UsageError } from '../core/seatflow-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { AlternateEmail, Column, User, UserPlan, Webhook } from '../contract/index.js';
import { DESTRUCTIVE_ACTIONS, USER_ACTIONS, type Action, type ActionName } from '../manifest/action.js';
import { createClashChecker } from '../manifest/clash-checker.js';
import type { LoadedManifest } from '../manifest/load-manifest.js';
import type { RowProblem } from '../manifest/manifest-row.js';
import { classifyResourceRow } from './classify-resource-row.js';
import { classifyUserRow, type Classification } from './classify-user-row.js';
import { countCalls, isNotFound } from './count-calls.js';
import { planUpload } from './plan-upload.js';
import { plansOfUser } from './plans-of-user.js';
import { findUser, type KnownUsers, type PreflightFacts } from './preflight-facts.js';
import { RULES, VERDICTS, type BatchPlan, type BatchPlanSummary, type PlannedRow } from './planned-row.js';
import { readRemovalGroups } from './removal-groups.js';
import { resolveUsers } from './resolve-users.js';
import type { ServiceFacts } from './service-constraints.js';
import { planNotes } from './plan-notes.js';
import { plural } from '../core/plural.js';

export interface PreflightOptions extends ServiceFacts {
  api: SmartsheetApi;
  /** guardrails.protectedAccounts. */
  protectedAccounts?: readonly string[];
  /** E-mails per `email=` call. Default 100. */
  emailBatchSize?: number;
  /** Page size of full listings. Default and at most 2000, the service's cap (docs/service.md#paging-list-users). */
  fullPageSize?: number;
  /** Users whose plans are listed one call each when a seat row names no planId. Default 50. */
  planLookupLimit?: number;
  /** Whether the service is past the VIEWER sunset (seat rows then say they are sent as CONTRIBUTOR). Default true. */
  pastViewerSunset?: boolean;
}

const SEAT_ACTIONS = new Set(['downgrade', 'upgrade', 'remove-from-plan']);
const ALTERNATE_ACTIONS = new Set(['add-alternate-email', 'delete-alternate-email', 'make-alternate-email-primary']);

/**
 * The pre-flight: reads, in bulk, the live state every row depends on and classifies each row (change, no-op,
 * refused, not-found, conflict). Invalid rows of the manifest come through as verdict 'invalid'. Changes nothing.
 */
export async function preflight(manifest: LoadedManifest, options: PreflightOptions): Promise<BatchPlan> {
  const { api, calls } = countCalls(options.api);
  const rows = manifest.rows;
  const me = await api.users.getCurrent();
  refuseNonAdminForUserActions(me, rows);

  const emails = new Set<string>();
  const ids = new Set<number>();
  const addRef = (ref: { email?: string; userId?: number }) => {
    if (ref.userId !== undefined) ids.add(ref.userId);
    else if (ref.email !== undefined) emails.add(ref.email);
  };
  for (const { action } of rows) {
    if ('user' in action) addRef(action.user);
    if (action.action === 'remove' && action.transferTo !== undefined) addRef(action.transferTo);
    // An address about to become someone's alternate must not already be a primary address.
    if (action.action === 'add-alternate-email') emails.add(action.alternateEmail);
  }
  const users = await resolveUsers(api, emails, ids, { emailBatchSize: options.emailBatchSize, fullPageSize: options.fullPageSize });
  // An async function keeps its locals until it returns: a million names would stay through the classification.
  emails.clear();
  ids.clear();
  const known: KnownUsers = { usersByEmail: users.byEmail, usersById: users.byId };

  const facts: PreflightFacts = {
    caller: { id: me.id, email: me.email.toLowerCase() },
    ...known,
    seats: await readSeats(api, rows, known, options),
    alternates: await readAlternates(api, rows, known),
    columns: await readColumns(api, rows),
    webhooks: rows.some(({ action }) => 'webhookId' in action) ? await readWebhooks(api) : undefined,
    protectedAccounts: new Set((options.protectedAccounts ?? []).map((entry) => entry.trim().toLowerCase())),
    groupsOwned: await readRemovalGroups(api, rows, known),
  };

  const planned: PlannedRow[] = rows.map(({ row, line, action, upload }) => ({ row, line, action, actionName: action.action, ...planUpload(action.action, classify(action, facts, options), upload) }));
  markResolvedClashes(planned, facts);
  for (const invalid of manifest.invalid) {
    planned.push({
      row: invalid.row,
      line: invalid.line,
      action: undefined,
      actionName: invalid.actionName,
      verdict: 'invalid',
      rule: RULES.invalidRow,
      ...(invalid.rawEmail === undefined ? {} : { rawEmail: invalid.rawEmail }),
      reason: invalid.problems.map((problem) => (problem.field === undefined ? problem.message : `${problem.field}: ${problem.message}`)).join('; '),
      target: {},
      problems: invalid.problems,
    });
  }
  planned.sort((a, b) => a.row - b.row);
  // The share guardrail needs the organization's size; one small page tells it when no listing did.
  let organizationUsers = users.organizationSize;
  if (organizationUsers === undefined && planned.some((row) => row.verdict === 'change' && DESTRUCTIVE_ACTIONS.has(row.actionName as ActionName))) {
    organizationUsers = (await api.users.listPage({ page: 1, pageSize: 1 })).totalCount;
  }
  const notes = planNotes(planned, options);
  return {
    rows: planned,
    summary: summarize(planned),
    apiCalls: calls(),
    source: { path: manifest.path, sha256: manifest.sha256, format: manifest.format },
    ...(organizationUsers === undefined ? {} : { organizationUsers }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

function classify(action: Action, facts: PreflightFacts, options: PreflightOptions): Classification {
  if (!('user' in action)) return classifyResourceRow(action, facts);
  return classifyUserRow(action, facts, {
    ...(options.pastViewerSunset === undefined ? {} : { pastViewerSunset: options.pastViewerSunset }),
    region: options.region,
    externalSources: options.externalSources,
  });
}

/** Rows that name one user differently (e-mail in one, id in another) clash only once both are resolved. */
function markResolvedClashes(planned: PlannedRow[], facts: PreflightFacts): void {
  const keyOf = (action: Action): string | undefined => {
    if (!('user' in action)) return undefined;
    const user = findUser(facts, action.user);
    return user === undefined ? undefined : `u:${user.id}`;
  };
  const checker = createClashChecker({
    keyOf,
    transferKeyOf: (action) => {
      if (action.action !== 'remove' || action.transferTo === undefined) return undefined;
      const heir = findUser(facts, action.transferTo);
      return heir === undefined ? undefined : `u:${heir.id}`;
    },
  });
  // Valid rows are in file order here: a row is found by a binary search, not through a map of a million entries.
  const rowOf = (number: number): PlannedRow | undefined => {
    let low = 0;
    let high = planned.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const row = planned[middle]!;
      if (row.row === number) return row;
      if (row.row < number) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  };
  const problems: RowProblem[][] = [];
  for (const row of planned) {
    if (row.action === undefined || row.verdict === 'not-found') continue;
    const found = checker.add(row.row, row.line, row.action);
    if (found.length > 0) problems.push(found);
  }
  // finish() may name every row of the file (each hands over to a user it removes): never spread it into arguments.
  problems.push(checker.finish());
  for (const problem of problems.flat()) {
    const row = rowOf(problem.row);
    if (row === undefined || row.verdict === 'conflict') continue;
    row.verdict = 'conflict';
    row.rule = problem.field === 'transferTo' ? RULES.transferTargetRemoved : problem.message.startsWith('repeats') ? RULES.duplicate : RULES.contradictory;
    row.reason = problem.message;
  }
}

/**
 * Seats of the users of seat rows, per plan. Rows naming a planId are read with plan-filtered listings (bulk).
 * For rows without one, the user's plans are listed one call per user, up to `planLookupLimit` users (exact:
 * a user in two plans is refused as ambiguous); above that, every plan seen on the resolved users is read with a
 * plan-filtered listing instead, which misses a plan that is no resolved user's first plan.
 */
async function readSeats(
  api: SmartsheetApi,
  rows: LoadedManifest['rows'],
  known: KnownUsers,
  options: PreflightOptions,
): Promise<Map<number, Map<number, User>>> {
  const seats = new Map<number, Map<number, User>>();
  const seatIn = (planId: number) => seats.get(planId) ?? seats.set(planId, new Map()).get(planId)!;
  const plans = new Set<number>();
  const emails = new Set<string>();
  const planless = new Map<number, User>();
  for (const { action } of rows) {
    if (!SEAT_ACTIONS.has(action.action) || !('user' in action)) continue;
    const user = findUser(known, action.user);
    if (user === undefined) continue;
    emails.add(user.email.toLowerCase());
    if ('planId' in action && action.planId !== undefined) plans.add(action.planId);
    else planless.set(user.id, user);
  }
  if (planless.size > 0 && planless.size <= (options.planLookupLimit ?? 50)) {
    for (const user of planless.values()) {
      for (const plan of await plansOfUser(api, user.id)) seatIn(plan.planId).set(user.id, seatOfPlan(user, plan));
      emails.delete(user.email.toLowerCase());
    }
  } else if (planless.size > 0) {
    for (const user of known.usersById.values()) if (user.planId !== undefined) plans.add(user.planId);
  }
  if (emails.size === 0) return seats;
  for (const planId of plans) {
    const found = await resolveUsers(api, emails, new Set(), { planId, emailBatchSize: options.emailBatchSize, fullPageSize: options.fullPageSize });
    for (const [id, user] of found.byId) seatIn(planId).set(id, user);
  }
  return seats;
}

/**
 * The user as seen in one plan: that plan's seat type and isInternal, and what the service sent for them that
 * seatflow does not know (the user's own unknown seat type belongs to another plan and is dropped).
 */
function seatOfPlan(user: User, plan: UserPlan): User {
  const { seatType: _first, isInternal: _firstInternal, unrecognized, ...rest } = user;
  const kept = [...(unrecognized ?? []).filter((item) => item.field !== 'seatType'), ...(plan.unrecognized ?? [])];
  return {
    ...rest,
    planId: plan.planId,
    ...(plan.seatType === undefined ? {} : { seatType: plan.seatType }),
    ...(plan.isInternal === undefined ? {} : { isInternal: plan.isInternal }),
    ...(kept.length === 0 ? {} : { unrecognized: kept }),
  };
}

async function readAlternates(api: SmartsheetApi, rows: LoadedManifest['rows'], known: KnownUsers) {
  const alternates = new Map<number, AlternateEmail[]>();
  for (const { action } of rows) {
    if (!ALTERNATE_ACTIONS.has(action.action) || !('user' in action)) continue;
    const user = findUser(known, action.user);
    if (user === undefined || alternates.has(user.id)) continue;
    try {
      alternates.set(user.id, (await api.alternateEmails.listPage(user.id, { includeAll: true })).data);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return alternates;
}

async function readColumns(api: SmartsheetApi, rows: LoadedManifest['rows']) {
  const columns = new Map<number, Column[] | 'not-found'>();
  for (const { action } of rows) {
    if (USER_ACTIONS.has(action.action) || !('sheetId' in action) || columns.has(action.sheetId)) continue;
    try {
      columns.set(action.sheetId, (await api.columns.listPage(action.sheetId, { includeAll: true, level: 2 })).data);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      columns.set(action.sheetId, 'not-found');
    }
  }
  return columns;
}

/** Every webhook the token sees; after the 2026-06-03 sunset includeAll is ignored, so page until a short page. */
async function readWebhooks(api: SmartsheetApi): Promise<Map<number, Webhook>> {
  const webhooks = new Map<number, Webhook>();
  const pageSize = 10_000;
  for (let page = 1; ; page += 1) {
    const answer = await api.webhooks.listPage({ page, pageSize });
    for (const hook of answer.data) webhooks.set(hook.id, hook);
    if (answer.data.length < pageSize || (answer.totalPages >= 0 && page >= answer.totalPages)) break;
  }
  return webhooks;
}

function summarize(rows: readonly PlannedRow[]): BatchPlanSummary {
  const summary = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Omit<BatchPlanSummary, 'total'>;
  for (const row of rows) summary[row.verdict] += 1;
  return { total: rows.length, ...summary };
}

/**
 * User administration needs a System Admin. Without one the service hides status and admin flags, so every
 * classification would be wrong, and every row would then fail with 403: refuse before anything else.
 */
function refuseNonAdminForUserActions(me: { email: string; admin?: boolean | undefined }, rows: LoadedManifest['rows']): void {
  if (me.admin !== false) return;
  const userRows = rows.filter(({ action }) => USER_ACTIONS.has(action.action));
  if (userRows.length === 0) return;
  throw new UsageError(
    `the access token belongs to ${me.email}, who is not a System Admin; ${plural(userRows.length, 'row')} ${userRows.length === 1 ? 'is' : 'are'} user administration (${[...new Set(userRows.map(({ action }) => action.action))].join(', ')}), which needs one`,
    "Set SMARTSHEET_ACCESS_TOKEN to a System Admin's API token. Column, discussion and webhook rows need only access to their sheet or webhook.",
  );
}
