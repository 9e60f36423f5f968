import { nextTurn, turnEvery } from '../core/event-loop-turn.js';
import { UsageError } from '../core/seatflow-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { AlternateEmail, Column, User, UserPlan, Webhook } from '../contract/index.js';
import { USER_ACTIONS, type Action } from '../manifest/action.js';
import type { InvalidRow, LoadedManifest } from '../manifest/load-manifest.js';
import type { ManifestRow } from '../manifest/manifest-row.js';
import { classifyResourceRow } from './classify-resource-row.js';
import { classifyUserRow } from './classify-user-row.js';
import { countCalls, isNotFound } from './count-calls.js';
import { planUpload } from './plan-upload.js';
import { plansOfUser } from './plans-of-user.js';
import { findUser, type KnownUsers, type PreflightFacts } from './preflight-facts.js';
import { PlanRows } from './plan-rows.js';
import { RULES, type BatchPlan, type Classification, type PlannedRow } from './planned-row.js';
import { readRemovalGroups } from './removal-groups.js';
import { resolveUsers } from './resolve-users.js';
import type { ServiceFacts } from './service-constraints.js';
import { planNotes } from './plan-notes.js';
import { createResolvedClashes, markConflict } from './resolved-clashes.js';
import { surveyHas, surveyRows, userAdministration, type RowSurvey } from './survey-rows.js';
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
  /**
   * Now on the service's clock, before the pre-flight reads: seat rows keep the seat it read, with this time, as their
   * state before (target.readAtPlan), so a row run while that reading stands reads it no more. Absent: each reads.
   */
  readAtMs?: number;
}

const SEAT_ACTIONS = new Set(['downgrade', 'upgrade', 'remove-from-plan']);
const ALTERNATE_ACTIONS = new Set(['add-alternate-email', 'delete-alternate-email', 'make-alternate-email-primary']);

/**
 * The pre-flight: reads, in bulk, the live state every row depends on and classifies each row (change, no-op,
 * refused, not-found, conflict). Invalid rows of the manifest come through as verdict 'invalid'. Changes nothing.
 *
 * The rows are read twice: once for what to ask the service (surveyRows), once to classify them. Each planned row goes
 * into a RowStore as it is classified, so a plan of a million rows holds them compact, never as a million objects.
 */
export async function preflight(manifest: LoadedManifest, options: PreflightOptions): Promise<BatchPlan> {
  const { api, calls } = countCalls(options.api);
  const rows = manifest.rows;
  const me = await api.users.getCurrent();
  const survey = await surveyRows(rows);
  refuseNonAdminForUserActions(me, survey);
  const users = await resolveUsers(api, survey.emails, survey.ids, { emailBatchSize: options.emailBatchSize, fullPageSize: options.fullPageSize });
  // An async function keeps its locals until it returns: a million names would stay through the classification.
  survey.emails.clear();
  survey.ids.clear();
  const known: KnownUsers = { usersByEmail: users.byEmail, usersById: users.byId };

  // Each reader makes a pass over the rows: only the ones some row needs run.
  const facts: PreflightFacts = {
    caller: { id: me.id, email: me.email.toLowerCase() },
    ...known,
    seats: surveyHas(survey, SEAT_ACTIONS) ? await readSeats(api, rows, known, options) : new Map(),
    alternates: surveyHas(survey, ALTERNATE_ACTIONS) ? await readAlternates(api, rows, known) : new Map(),
    columns: [...survey.actions.keys()].some((action) => !USER_ACTIONS.has(action)) ? await readColumns(api, rows) : new Map(),
    webhooks: survey.webhooks ? await readWebhooks(api) : undefined,
    protectedAccounts: new Set((options.protectedAccounts ?? []).map((entry) => entry.trim().toLowerCase())),
    groupsOwned: survey.actions.has('remove') ? await readRemovalGroups(api, rows, known) : new Map(),
    ...(options.readAtMs === undefined ? {} : { readAt: new Date(options.readAtMs).toISOString() }),
  };

  const planned = await classifyRows(manifest, facts, options);
  // The share guardrail needs the organization's size; one small page tells it when no listing did.
  let organizationUsers = users.organizationSize;
  if (organizationUsers === undefined && planned.tally.destructiveChanges() > 0) {
    organizationUsers = (await api.users.listPage({ page: 1, pageSize: 1 })).totalCount;
  }
  const notes = planNotes(planned.tally.changes, options);
  return {
    rows: planned,
    summary: planned.tally.summary(),
    apiCalls: calls(),
    source: { path: manifest.path, sha256: manifest.sha256, format: manifest.format },
    ...(organizationUsers === undefined ? {} : { organizationUsers }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

/**
 * Every row in row order, valid ones classified and checked for clashes on resolved users, invalid ones as they were
 * refused. A conflict found only at the end (a transfer target a later row removes) rewrites the store once.
 */
async function classifyRows(manifest: LoadedManifest, facts: PreflightFacts, options: PreflightOptions): Promise<PlanRows> {
  const invalid = [...manifest.invalid].sort((a, b) => a.row - b.row);
  const clashes = createResolvedClashes(facts);
  let planned = new PlanRows();
  let next = 0;
  let previous = 0;
  const turn = turnEvery();
  for (const { row, line, action, upload } of manifest.rows) {
    if (turn()) await nextTurn();
    if (row <= previous) throw new Error(`preflight: the manifest's rows are not in file order (row ${row} after row ${previous})`);
    previous = row;
    while (next < invalid.length && invalid[next]!.row < row) planned.append(invalidRow(invalid[next++]!));
    const classified: PlannedRow = { row, line, action, actionName: action.action, ...planUpload(action.action, classify(action, facts, options), upload) };
    clashes.check(classified);
    planned.append(classified);
  }
  while (next < invalid.length) planned.append(invalidRow(invalid[next++]!));
  const late = clashes.finish();
  if (late.size === 0) return planned;
  const checked = planned;
  planned = new PlanRows();
  for (const row of checked) {
    if (turn()) await nextTurn();
    const problem = late.get(row.row);
    if (problem !== undefined) markConflict(row, problem);
    planned.append(row);
  }
  return planned;
}

function invalidRow(invalid: InvalidRow): PlannedRow {
  return {
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

/**
 * Seats of the users of seat rows, per plan. Rows naming a planId are read with plan-filtered listings (bulk).
 * For rows without one, the user's plans are listed one call per user, up to `planLookupLimit` users (exact:
 * a user in two plans is refused as ambiguous); above that, every plan seen on the resolved users is read with a
 * plan-filtered listing instead, which misses a plan that is no resolved user's first plan.
 */
async function readSeats(
  api: SmartsheetApi,
  rows: Iterable<ManifestRow>,
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

async function readAlternates(api: SmartsheetApi, rows: Iterable<ManifestRow>, known: KnownUsers) {
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

async function readColumns(api: SmartsheetApi, rows: Iterable<ManifestRow>) {
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

/**
 * User administration needs a System Admin. Without one the service hides status and admin flags, so every
 * classification would be wrong, and every row would then fail with 403: refuse before anything else.
 */
function refuseNonAdminForUserActions(me: { email: string; admin?: boolean | undefined }, survey: RowSurvey): void {
  if (me.admin !== false) return;
  const administration = userAdministration(survey);
  if (administration.rows === 0) return;
  throw new UsageError(
    `the access token belongs to ${me.email}, who is not a System Admin; ${plural(administration.rows, 'row')} ${administration.rows === 1 ? 'is' : 'are'} user administration (${administration.actions.join(', ')}), which needs one`,
    "Set SMARTSHEET_ACCESS_TOKEN to a System Admin's API token. Column, discussion and webhook rows need only access to their sheet or webhook.",
  );
}
