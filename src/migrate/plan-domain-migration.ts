import { createHash } from 'node:crypto';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import { domainMatches, ERROR_CODES } from '../contract/index.js';
import type { Action } from '../manifest/action.js';
import { externalSourceOf, type ExternalSource } from '../plan/external-sources.js';
import { checkGuardrails, type GuardrailCheck, type GuardrailLimits } from '../plan/guardrails.js';
import { judgeNewAlternate } from '../plan/judge-new-alternate.js';
import { countsOf } from '../plan/plan-rows.js';
import { RULES, type BatchPlan, type PlannedRow, type ResolvedTarget, type Rule, type Verdict } from '../plan/planned-row.js';
import { plural } from '../core/plural.js';
import type { DomainMigrationRequest } from './domain-migration-request.js';
import { readDomainUsers, type DomainCandidate, type DomainUsersRead } from './read-domain-users.js';

/** What the migration does to one user, as planned. */
export interface DomainMove {
  /** The user's row in the migration (1-based): their row in every step batch. */
  row: number;
  email: string;
  newEmail: string;
  userId?: number;
  /** change: migrate; no-op: already on the new address; the rest: nothing is done, for the reason given. */
  verdict: Exclude<Verdict, 'invalid'>;
  rule?: Rule;
  errorCode?: number;
  reason?: string;
  /** The new address now: to add, or already an alternate (confirmed or waiting for its owner). */
  newAddress: 'add' | 'confirmed' | 'unconfirmed' | 'primary';
  alternateEmailId?: number;
  /** Make-primary is expected to wait for the owner's confirmation (the new domain is not known to be validated). */
  waits: boolean;
}

export interface DomainMigrationPlan {
  request: DomainMigrationRequest;
  /** What the plan is called in batches, reports and approvals: `migrate domain acme.com → acme.io`. */
  source: { path: string; sha256: string };
  moves: DomainMove[];
  /** The rows (add, make primary, remove old, per user) for the plan's printers, the guardrails and approvals. */
  plan: BatchPlan;
  guardrails: GuardrailCheck;
  summary: { users: number; migrate: number; already: number; refused: number; waits: number };
  /**
   * When the users were read (service clock, taken before the read): each user's migrate step stands on this reading
   * instead of reading the user again while it stands (domain-lifecycle.ts). Absent: every step reads.
   */
  readAtMs?: number;
}

export interface PlanDomainMigrationOptions {
  api: SmartsheetApi;
  request: DomainMigrationRequest;
  guardrails: GuardrailLimits & { protectedAccounts: readonly string[] };
  /** config externalSources: users whose address an identity provider sets (it may set it back). */
  externalSources?: readonly ExternalSource[];
  /** Now on the service's clock, before the users are read (the plan's readAtMs). */
  nowMs?: number;
}

/**
 * The plan of a domain migration, from live state, changing nothing: for every user on the old domain (or listed),
 * add the new address as an alternate, make it primary, then keep or delete the old one. The service's rules decide
 * who is migrated: make-primary needs the domains validated for the plan (1186), an address on a domain that is not
 * validated waits for its owner's confirmation (1158), an address someone already holds is a clash (1157, 1159), and
 * a user has at most so many alternates (1330). Refused users are in the plan with the reason before anything runs.
 */
export async function planDomainMigration(options: PlanDomainMigrationOptions): Promise<DomainMigrationPlan> {
  const { request } = options;
  const read = await readDomainUsers(options.api, request);
  const protectedAccounts = new Set(options.guardrails.protectedAccounts.map((entry) => entry.trim().toLowerCase()));
  const moves = read.candidates.map((candidate, i) => judgeMove(candidate, i + 1, read, request, protectedAccounts));
  const rows = moves.flatMap((move) => rowsOf(move, request, options.externalSources ?? []));
  rows.forEach((row, i) => (row.row = i + 1));
  const title = `migrate domain ${request.from} → ${request.to}${request.usersFile === undefined ? '' : ` (${request.usersFile})`}`;
  // Key order is fixed (the request's schema, decisionOf): the same request over the same live state hashes alike.
  const sha256 = createHash('sha256').update(JSON.stringify({ request, moves: moves.map(decisionOf) })).digest('hex');
  const plan: BatchPlan = {
    rows,
    summary: countsOf(rows).summary(),
    apiCalls: read.apiCalls,
    source: { path: title, sha256, format: 'json' },
    ...(read.organizationUsers === undefined ? {} : { organizationUsers: read.organizationUsers }),
    notes: notesOf(moves, request),
  };
  const count = (verdicts: readonly string[]) => moves.filter((move) => verdicts.includes(move.verdict)).length;
  return {
    request,
    source: { path: title, sha256 },
    moves,
    plan,
    guardrails: checkGuardrails(plan, options.guardrails),
    summary: { users: moves.length, migrate: count(['change']), already: count(['no-op']), refused: count(['refused', 'conflict', 'not-found']), waits: moves.filter((move) => move.verdict === 'change' && move.waits).length },
    ...(options.nowMs === undefined ? {} : { readAtMs: options.nowMs }),
  };
}

/** What a move decides, for the plan's hash (and so the migration's id): not the words of its reason. */
export function decisionOf(move: DomainMove): Record<string, unknown> {
  return { row: move.row, email: move.email, newEmail: move.newEmail, userId: move.userId, verdict: move.verdict, errorCode: move.errorCode, newAddress: move.newAddress, waits: move.waits };
}

function judgeMove(candidate: DomainCandidate, row: number, read: DomainUsersRead, request: DomainMigrationRequest, protectedAccounts: ReadonlySet<string>): DomainMove {
  const base = { row, email: candidate.email, newEmail: candidate.newEmail, newAddress: 'add' as const, waits: false };
  const user = candidate.user;
  if (user === undefined) return { ...base, verdict: 'not-found', reason: `neither ${candidate.email} nor ${candidate.newEmail} is a user of the organization` };
  const known = { ...base, userId: user.id };
  const primary = user.email.toLowerCase();
  if (primary === candidate.newEmail) return { ...known, verdict: 'no-op', newAddress: 'primary', reason: `${candidate.newEmail} is already the primary address` };
  if (protectedAccounts.has(primary) || protectedAccounts.has(String(user.id))) {
    return { ...known, verdict: 'refused', rule: RULES.protectedAccount, reason: `${primary} is a protected account (guardrails.protectedAccounts)` };
  }
  if (request.validatedDomains !== undefined && !domainMatches(primary, request.validatedDomains)) {
    return {
      ...known,
      verdict: 'refused',
      rule: RULES.domainNotValidated,
      errorCode: ERROR_CODES.primaryDomainNotValidated,
      reason: `${request.from} is not validated for the plan: the service refuses to change the primary address (1186); validate it in Admin Center → Domain management, then plan again`,
    };
  }
  if (!read.alternates.has(user.id)) return { ...known, verdict: 'not-found', reason: `${primary} left the organization while it was read` };
  const judged = judgeNewAlternate(user, candidate.newEmail, read, { userId: user.id, email: primary });
  if (judged.verdict !== 'change' && judged.verdict !== 'no-op') {
    return { ...known, verdict: judged.verdict === 'invalid' ? 'refused' : judged.verdict, ...(judged.rule === undefined ? {} : { rule: judged.rule }), ...(judged.errorCode === undefined ? {} : { errorCode: judged.errorCode }), ...(judged.reason === undefined ? {} : { reason: judged.reason }) };
  }
  const existing = read.alternates.get(user.id)?.find((alternate) => alternate.id === judged.target.alternateEmailId);
  const newAddress = existing === undefined ? 'add' : existing.confirmed === false ? 'unconfirmed' : 'confirmed';
  const onValidated = request.validatedDomains !== undefined && domainMatches(candidate.newEmail, request.validatedDomains);
  return {
    ...known,
    verdict: 'change',
    newAddress,
    ...(existing === undefined ? {} : { alternateEmailId: existing.id }),
    waits: newAddress !== 'confirmed' && !onValidated,
  };
}

const userOf = (move: DomainMove) => ({ userId: move.userId ?? 0, email: move.email });

/** The rows of one user: what will be called for them, in order (or the one row that says why nothing will). */
function rowsOf(move: DomainMove, request: DomainMigrationRequest, sources: readonly ExternalSource[]): PlannedRow[] {
  const target: ResolvedTarget = { ...(move.userId === undefined ? {} : { userId: move.userId }), email: move.email };
  const row = (action: Action, verdict: Verdict, extra: Partial<PlannedRow> = {}): PlannedRow => ({ row: 0, line: 0, action, actionName: action.action, verdict, target, ...extra });
  const add: Action = { action: 'add-alternate-email', user: userOf(move), alternateEmail: move.newEmail };
  const promote: Action = { action: 'make-alternate-email-primary', user: userOf(move), alternateEmail: move.newEmail };
  const why = { ...(move.rule === undefined ? {} : { rule: move.rule }), ...(move.errorCode === undefined ? {} : { errorCode: move.errorCode }), ...(move.reason === undefined ? {} : { reason: move.reason }) };
  if (move.verdict === 'no-op') return [row(promote, 'no-op', why)];
  if (move.verdict !== 'change') return [row(move.rule === RULES.domainNotValidated ? promote : add, move.verdict, why)];
  const source = externalSourceOf(move.email, sources);
  const rows = [
    move.newAddress === 'add'
      ? row(add, 'change', source === undefined ? {} : { reason: `managed by ${source.name}: change the address there too, or it may set it back` })
      : row(add, 'no-op', { reason: `${move.newEmail} is already an alternate address${move.newAddress === 'unconfirmed' ? ' (not confirmed yet)' : ''}` }),
    row(promote, 'change', move.waits ? { reason: `after its owner confirms ${move.newEmail} (checked until ${request.confirmWithinDays} days after the start): ${request.to} is not known to be validated` } : {}),
  ];
  if (request.oldAddress === 'remove') {
    rows.push(row({ action: 'delete-alternate-email', user: { userId: move.userId ?? 0 }, alternateEmail: move.email }, 'change', { target: { ...target, email: move.newEmail }, reason: 'after the new address is primary' }));
  }
  return rows;
}

function notesOf(moves: readonly DomainMove[], request: DomainMigrationRequest): string[] {
  const notes: string[] = [];
  const waiting = moves.filter((move) => move.verdict === 'change' && move.waits).length;
  if (request.validatedDomains === undefined) {
    notes.push(`seatflow cannot read which domains are validated for the plan: it assumes ${request.from} is and that owners must confirm their ${request.to} address. Say which are with --validated-domains to plan exactly.`);
  }
  if (waiting > 0) {
    notes.push(`${plural(waiting, 'user')} must confirm the new address (the service e-mails its owner a link) before it can become primary; the migration checks again until ${request.confirmWithinDays} days after the start, then lists who has not confirmed. Validate ${request.to} for the plan to skip the wait.`);
  }
  if (request.oldAddress === 'remove') notes.push('The old addresses are deleted once the new ones are primary: a revert cannot bring them back (keep them with --keep-old until you are sure).');
  notes.push('An address held as an alternate by a user outside this migration is found when its add runs (the service answers 1159); that user is then listed with the reason.');
  return notes;
}
