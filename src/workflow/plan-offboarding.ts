import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import type { User } from '../contract/index.js';
import type { LoadedManifest } from '../manifest/load-manifest.js';
import { countCalls } from '../plan/count-calls.js';
import { checkGuardrails, type GuardrailCheck } from '../plan/guardrails.js';
import { RULES, type PlannedRow } from '../plan/planned-row.js';
import { preflight } from '../plan/preflight.js';
import { checkHold } from './hold-duration.js';
import type { LeaveDateSource, Leaver, LeaversColumnChoices, LeaversFile } from './read-leavers.js';
import { createGroupOwnershipReader, type GroupOwnership, type GroupOwnershipReader } from '../plan/group-ownership.js';
import { isGroupAdmin, judgeRemoval, type TransferCandidate } from '../plan/removal-preflight.js';
import type { StateBefore } from './leaver-state.js';
import { readStatesAtPlan } from './states-at-plan.js';

/**
 * deactivate-on-date: access is cut on a future leave date; deactivate-now: no date or a past one; already-deactivated:
 * the hold starts at the leave date without a call; refused: nothing will be done for this leaver (rule, reason).
 */
export type LeaverVerdict = 'deactivate-on-date' | 'deactivate-now' | 'already-deactivated' | 'refused';

export interface PlannedLeaver {
  row: number;
  line: number;
  email: string;
  userId?: number;
  leaveAt: number;
  /** The leave date as the file gave it and what it was read as; undefined: no date (now). */
  leaveDate?: LeaveDateSource;
  verdict: LeaverVerdict;
  rule?: string;
  reason?: string;
  notes: string[];
  transferTo?: { email: string; userId: number };
  /** Groups the user owns now; undefined when the service did not say, or they were not read (a group admin takes them). */
  groupsOwned?: number;
  /**
   * The user as the plan read them (status, admin flags, seats per plan, groups when read): the state before of a
   * deactivation that is due at once, so its step reads nothing again.
   */
  stateBefore?: StateBefore;
  /** The deactivate row as the pre-flight planned it (the deactivate step's row). */
  deactivateRow: PlannedRow;
}

export interface OffboardingOptions {
  holdMs: number;
  /** --transfer-to: the fallback transfer target for every leaver. */
  transferTo?: string;
  removeFromSharing: boolean;
  timeZone?: string;
  /** Which column of the leavers file means what (--leave-date-column, …): another choice is another offboarding. */
  columns?: LeaversColumnChoices;
  /** --no-undo-window: a hold below offboarding.minHoldHours is accepted. */
  noUndoWindow?: boolean;
}

export interface OffboardingPlan {
  source: { path: string; sha256: string; format: LeaversFile['format'] };
  options: OffboardingOptions;
  leavers: PlannedLeaver[];
  guardrails: GuardrailCheck;
  apiCalls: number;
  plannedAt: number;
}

export interface PlanOffboardingOptions {
  api: SmartsheetApi;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  options: OffboardingOptions;
  now: number;
  /** Where a user is leaving in another open offboarding (`offboarding o… row N`), if anywhere. */
  leavingElsewhere: (userId: number) => Promise<string | undefined>;
}

/**
 * The plan of an offboarding, before anything is queued: the pre-flight of the deactivate rows (not found, protected,
 * own account, consumer domain, status), the leave date, group ownership, and the transfer target each removal will
 * use (the row's, else --transfer-to), each checked now. A hold longer than the reactivation window, or shorter than
 * the minimum without --no-undo-window, is refused whole.
 */
export async function planOffboarding(file: LeaversFile, options: PlanOffboardingOptions): Promise<OffboardingPlan> {
  checkHold(options.options.holdMs, options.config.offboarding, options.options);
  const { api, calls } = countCalls(options.api);
  const manifest: LoadedManifest = {
    path: file.path,
    format: file.format,
    sha256: file.sha256,
    rows: file.leavers.map((leaver) => ({ row: leaver.row, line: leaver.line, action: { action: 'deactivate', user: { email: leaver.email } } })),
    invalid: [],
    rowCount: file.leavers.length,
    validCount: file.leavers.length,
    warnings: [],
  };
  const deactivation = await preflight(manifest, { api, protectedAccounts: options.config.guardrails.protectedAccounts });
  const targets = await resolveTargets(api, file.leavers, options.options.transferTo);
  const leavingHere = new Map(file.leavers.map((leaver) => [leaver.email, leaver.row]));
  const groups = createGroupOwnershipReader(api);
  // The state before of the deactivations due now, read in bulk (a later leave date is read on the day).
  const dueNow = new Set(file.leavers.filter((leaver) => (leaver.leaveAt ?? options.now) <= options.now).map((leaver) => leaver.row));
  const resolved = Array.from(deactivation.rows).flatMap(({ row, verdict, target }) =>
    dueNow.has(row) && (verdict === 'change' || verdict === 'no-op') && target.userId !== undefined && target.email !== undefined ? [{ userId: target.userId, email: target.email }] : [],
  );
  const states = await readStatesAtPlan(api, resolved, new Date(options.now));

  // The rows by number, read once: a search per leaver read the plan again for each.
  const deactivations = new Map(Array.from(deactivation.rows, (planned) => [planned.row, planned]));
  const leavers: PlannedLeaver[] = [];
  // A few leavers at a time: each reads its profile (groups owned); the shared request budget paces the calls.
  for (let i = 0; i < file.leavers.length; i += PLAN_CONCURRENCY) {
    const slice = file.leavers.slice(i, i + PLAN_CONCURRENCY);
    leavers.push(
      ...(await Promise.all(
        slice.map((leaver) => {
          const row = deactivations.get(leaver.row);
          if (row === undefined) throw new Error(`the pre-flight lost row ${leaver.row}`);
          return planLeaver(leaver, row, { ...options, api, targets, leavingHere, groups, states });
        }),
      )),
    );
  }
  const accepted = leavers.filter((leaver) => leaver.verdict !== 'refused');
  const removals: PlannedRow[] = accepted.map((leaver) => ({ ...leaver.deactivateRow, actionName: 'remove', verdict: 'change' }));
  const guardrails = checkGuardrails({ rows: removals, organizationUsers: deactivation.organizationUsers }, options.config.guardrails);
  return {
    source: { path: file.path, sha256: file.sha256, format: file.format },
    options: options.options,
    leavers,
    guardrails,
    apiCalls: deactivation.apiCalls + calls(),
    plannedAt: options.now,
  };
}

/** Leavers planned at once. */
const PLAN_CONCURRENCY = 8;

interface LeaverContext extends PlanOffboardingOptions {
  targets: Map<string, User>;
  leavingHere: Map<string, number>;
  groups: GroupOwnershipReader;
  states: ReadonlyMap<number, StateBefore>;
}

/** Why the plan did not read a leaver's groups. */
const GROUPS_GO_TO_ADMIN = 'not read: the transfer target is a group admin and takes whatever groups the user owns';

async function planLeaver(leaver: Leaver, row: PlannedRow, context: LeaverContext): Promise<PlannedLeaver> {
  const leaveAt = Math.max(leaver.leaveAt ?? context.now, context.now);
  const base = { row: leaver.row, line: leaver.line, email: leaver.email, leaveAt, ...(leaver.leaveDate === undefined ? {} : { leaveDate: leaver.leaveDate }), notes: [] as string[], deactivateRow: row };
  const userId = row.target.userId;
  const refused = (rule: string, reason: string): PlannedLeaver => ({ ...base, ...(userId === undefined ? {} : { userId }), verdict: 'refused', rule, reason });
  if (row.verdict !== 'change' && row.verdict !== 'no-op') return refused(row.rule ?? row.verdict, row.reason ?? row.verdict);
  if (userId === undefined) return refused(RULES.invalidRow, 'the user was not resolved');
  const elsewhere = await context.leavingElsewhere(userId);
  if (elsewhere !== undefined) return refused('already-leaving', `already leaving in ${elsewhere}`);

  // The row's target first, then --transfer-to: judged by the removal pre-flight every path shares.
  const candidates: TransferCandidate[] = [];
  for (const [email, from] of [[leaver.transferTo, 'row'], [context.options.transferTo, 'fallback']] as const) {
    if (email === undefined || candidates.some((candidate) => candidate.named === email)) continue;
    const user = context.targets.get(email);
    const hereRow = context.leavingHere.get(email);
    const leavingIn = hereRow !== undefined ? `this file, row ${hereRow}` : user === undefined ? undefined : await context.leavingElsewhere(user.id);
    candidates.push({ named: email, from, user, leavingIn });
  }
  const user = row.target.email === undefined ? { id: userId, email: leaver.email } : { id: userId, email: row.target.email };
  // Groups are read (one call per leaver) only where the verdict depends on them: a group admin who takes over takes
  // whatever groups the user owns; the re-check before the removal reads them then.
  const unread: GroupOwnership = { known: false, why: GROUPS_GO_TO_ADMIN };
  const blind = judgeRemoval({ user, groups: unread, candidates, transferSheets: true });
  const takesAnyGroups = blind.ok && candidates.some((candidate) => candidate.user !== undefined && candidate.user.id === blind.transferTo?.userId && isGroupAdmin(candidate.user));
  const ownership = takesAnyGroups ? unread : (await context.groups.read(userId)).ownership;
  const atPlan = context.states.get(userId);
  const planned: PlannedLeaver = {
    ...base,
    userId,
    verdict: row.verdict === 'no-op' ? 'already-deactivated' : leaver.leaveAt !== undefined && leaver.leaveAt > context.now ? 'deactivate-on-date' : 'deactivate-now',
    ...(ownership.known ? { groupsOwned: ownership.groups.length } : {}),
    ...(atPlan === undefined ? {} : { stateBefore: { ...atPlan, ...(ownership.known ? { groupsOwned: [...ownership.groups] } : {}) } }),
  };
  if (leaver.leaveAt !== undefined && leaver.leaveAt < context.now) {
    const given = leaver.leaveDate === undefined ? '' : ` (${leaver.leaveDate.column}: ${leaver.leaveDate.readAs})`;
    planned.notes.push(`leave date ${new Date(leaver.leaveAt).toISOString()}${given} has passed: deactivates now`);
  }
  const verdict = takesAnyGroups ? blind : judgeRemoval({ user, groups: ownership, candidates, transferSheets: true });
  if (!verdict.ok) return { ...planned, verdict: 'refused', rule: verdict.rule, reason: verdict.reason };
  if (verdict.transferTo !== undefined) planned.transferTo = verdict.transferTo;
  planned.notes.push(...verdict.notes);
  return planned;
}

/** The transfer targets of every row and --transfer-to, by e-mail, with `email=` listings (100 per call). */
async function resolveTargets(api: SmartsheetApi, leavers: readonly Leaver[], fallback: string | undefined): Promise<Map<string, User>> {
  const emails = [...new Set([...leavers.flatMap((leaver) => (leaver.transferTo === undefined ? [] : [leaver.transferTo])), ...(fallback === undefined ? [] : [fallback])])];
  const found = new Map<string, User>();
  for (let i = 0; i < emails.length; i += 100) {
    const page = await api.users.listPage({ email: emails.slice(i, i + 100), pageSize: 100 });
    for (const user of page.data) found.set(user.email.toLowerCase(), user);
  }
  return found;
}
