import { leavingOwnerOf } from '../workflow/workflow-store.js';
import { hrWorkflowIdOf } from './workflow-ids.js';
import { createHash } from 'node:crypto';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import { UsageError } from '../core/seatflow-error.js';
import type { Action } from '../manifest/action.js';
import type { LoadedManifest } from '../manifest/load-manifest.js';
import { countCalls } from '../plan/count-calls.js';
import { checkGuardrails } from '../plan/guardrails.js';
import type { PlannedRow } from '../plan/planned-row.js';
import { preflight } from '../plan/preflight.js';
import { seatCostOfAdd } from '../plan/service-constraints.js';
import { policySeatOf, seatMoveOf } from '../reconcile/evaluate-policy.js';
import { holdOf } from '../workflow/hold-duration.js';
import type { OffboardingSystem } from '../workflow/offboarding-system.js';
import type { LeaversFile } from '../workflow/read-leavers.js';
import type { AcceptedExports } from './accepted-exports.js';
import { JOINER_OPEN, MOVER_OPEN } from './hr-workflow-state.js';
import { JOINERS } from './joiner-lifecycle.js';
import { openLiveOrganization } from './live-organization.js';
import type { LoadedLifecyclePolicy } from './load-lifecycle-policy.js';
import { MOVERS } from './mover-lifecycle.js';
import type { HrExport } from './read-hr-export.js';
import { compareExport } from './compare-export.js';
import { LiveIndex } from './live-index.js';
import type { JoinerCandidate, MoverCandidate } from './sync-candidates.js';
import type { PlannedJoiner, PlannedMover, SyncPlan } from './sync-plan.js';

export interface PlanSyncOptions {
  /** A client on the shared request budget that retries its reads. */
  api: SmartsheetApi;
  hrExport: HrExport;
  policy: LoadedLifecyclePolicy;
  accepted: AcceptedExports;
  /** The offboarding workflow (and the engine of every lifecycle) of the target. */
  offboarding: OffboardingSystem;
  config: Pick<Config, 'guardrails' | 'offboarding'>;
  target: string;
  /** Now on the service clock. */
  now: number;
}

/**
 * The plan of a sync: the live organization (streamed: what is held is one small record per user, packed off the heap),
 * the last accepted export (the same), and the workflows still open, compared with the export (sync-candidates.ts,
 * the employees streamed from their compact store); then the joiners' adds and
 * reactivations and the movers' seat rows go through the pre-flight every batch has, and the leavers through the
 * offboarding's own plan (pre-flight, transfer target, group ownership). Changes nothing.
 */
export async function planSync(options: PlanSyncOptions): Promise<SyncPlan> {
  const { hrExport, policy, accepted } = options;
  const { api, calls } = countCalls(options.api);
  const runHash = createHash('sha256').update(`${options.target}\n${policy.key}\n${hrExport.sha256}`).digest('hex');
  const runId = `${policy.key.startsWith('file:') ? 'sync' : policy.key}@${hrExport.sha256.slice(0, 12)}`;
  const previous = await accepted.meta();

  const organization = await openLiveOrganization(api, { needs: { seats: true, lastLogin: false, alternateEmails: false, groupsOwned: false }, ...(policy.policy.planId === undefined ? {} : { planIds: [policy.policy.planId] }) });
  const plansRead = [organization.plan.primary.planId, ...organization.plan.secondary.map((plan) => plan.planId)].filter((id): id is number => id !== undefined);
  if (policy.policy.planId === undefined && plansRead.length > 1) {
    throw new UsageError(`the organization has ${plansRead.length} plans (${plansRead.join(', ')}): the policy must say which one's seats a sync gives`, 'Add "planId" to the lifecycle policy.');
  }
  const planId = policy.policy.planId ?? plansRead[0];
  const live = new LiveIndex();
  for await (const user of organization.users()) {
    const seat = user.seats.find((each) => each.planId === planId);
    live.set({ id: user.id, email: user.email.toLowerCase(), status: user.status, admin: user.admin, seat: seat === undefined ? undefined : policySeatOf({ seatType: seat.seatType, status: user.status, isInternal: seat.isInternal }), seatType: seat?.seatType, isInternal: seat?.isInternal });
  }

  // The run's own workflows (its ids come from the run) are not "pending elsewhere": a run applied again after its
  // answer was refused (a submission no Redis replica took, yet kept) plans its people again and finds its workflows.
  const ownHr = { joiners: hrWorkflowIdOf('j', runHash), movers: hrWorkflowIdOf('m', runHash) };
  const pending = await pendingPeople(options.offboarding, new Set([ownHr.joiners, ownHr.movers]));
  const leaverOptions = { holdMs: holdOf(policy.policy.leavers.hold, options.config.offboarding), removeFromSharing: policy.policy.leavers.removeFromSharing, timeZone: policy.policy.timeZone, ...(policy.policy.leavers.transferTo === undefined ? {} : { transferTo: policy.policy.leavers.transferTo }) };
  // So are the leavers of the run's own offboarding (its file is the run's: the same id): not "already leaving".
  const ownOffboarding = options.offboarding.idOf({ path: hrExport.path, sha256: runHash, format: hrExport.format }, leaverOptions);
  const leaving = new Map([...(await options.offboarding.store.leavingAll())].filter(([, owner]) => leavingOwnerOf(owner)?.workflowId !== ownOffboarding));
  const { candidates, previousSize } = await compareExport(
    {
      live,
      leaving,
      pendingJoin: pending.join,
      pendingMove: pending.move,
      policy: policy.policy,
      protectedAccounts: options.config.guardrails.protectedAccounts,
      callerId: organization.caller.id,
      nowMs: options.now,
      // Rows are numbered in the export's order: the last employee's is the highest.
      nextRow: (hrExport.employees.at(-1)?.row ?? 0) + 1,
    },
    hrExport.employees,
    // The accepted export stays in Redis: read for a chunk of the export's employees at a time, then walked once.
    previous === undefined ? undefined : { exports: accepted, meta: previous },
  );

  const { joiners, movers } = await preflightChanges(api, candidates.joiners, candidates.movers, planId, options);
  const leaverCauses: SyncPlan['leaverCauses'] = {};
  let leavers: SyncPlan['leavers'];
  if (candidates.leavers.length > 0) {
    const file: LeaversFile = {
      path: hrExport.path,
      sha256: runHash,
      format: hrExport.format,
      // Rows 1..n of the offboarding, as a leavers file's are (its step batches hold rows 1..total); the export's line
      // still says where each came from.
      leavers: candidates.leavers.map((leaver, index) => ({ row: index + 1, line: leaver.line, email: leaver.email, ...(leaver.leaveAt === undefined ? {} : { leaveAt: leaver.leaveAt }), ...(leaver.leaveDate === undefined ? {} : { leaveDate: leaver.leaveDate }), ...(leaver.transferTo === undefined ? {} : { transferTo: leaver.transferTo }) })),
      ignored: [],
    };
    candidates.leavers.forEach((leaver, index) => {
      leaverCauses[index + 1] = { cause: leaver.cause, ...(leaver.employeeId === undefined ? {} : { employeeId: leaver.employeeId }) };
    });
    leavers = await options.offboarding.plan(file, { api, config: options.config, options: leaverOptions });
  }

  const absentLeavers = candidates.leavers.filter((leaver) => leaver.absent).length;
  const base = previousSize > 0 ? previousSize : live.size;
  const share = base === 0 ? 0 : Math.max(candidates.gone, absentLeavers) / base;
  const threshold = policy.policy.safety.maxMissingShare;
  const removals: PlannedRow[] = (leavers?.leavers ?? []).filter((leaver) => leaver.verdict !== 'refused').map((leaver) => ({ ...leaver.deactivateRow, actionName: 'remove', verdict: 'change' }));
  const downgrades = movers.filter((mover) => mover.action === 'downgrade').map((mover): PlannedRow => ({ row: mover.employee.row, line: mover.employee.line, action: undefined, actionName: 'downgrade', verdict: mover.verdict, target: {} }));
  return {
    runId,
    runHash,
    workflowIds: { ...ownHr, offboarding: ownOffboarding },
    target: options.target,
    plannedAt: options.now,
    export: { path: hrExport.path, sha256: hrExport.sha256, format: hrExport.format, employees: hrExport.employees.length, exportedAt: hrExport.exportedAt, exportedAtFrom: hrExport.exportedAtFrom, ignored: hrExport.ignored },
    policy: { path: policy.path, sha256: policy.sha256, key: policy.key },
    ...(previous === undefined ? {} : { previous }),
    ...(planId === undefined ? {} : { planId }),
    organizationUsers: live.size,
    joiners,
    movers,
    ...(leavers === undefined ? {} : { leavers }),
    leaverCauses,
    undos: candidates.undos,
    transfers: candidates.transfers,
    notInExport: candidates.notInExport,
    protected: candidates.protected,
    listed: candidates.listed,
    missing: { gone: candidates.gone, absentLeavers, base, share, threshold, broken: (candidates.gone > 0 || absentLeavers > 0) && share >= threshold },
    guardrails: checkGuardrails({ rows: [...removals, ...downgrades], organizationUsers: live.size }, options.config.guardrails),
    apiCalls: calls() + (leavers?.apiCalls ?? 0),
    kept: candidates.kept,
  };
}

/** People whose join or move step is still to come, in the open joiners and movers workflows of the target but `own`. */
async function pendingPeople(offboarding: OffboardingSystem, own: ReadonlySet<string>): Promise<{ join: Set<string>; move: Set<number> }> {
  const join = new Set<string>();
  const move = new Set<number>();
  for (const workflow of await offboarding.engine.activeWorkflows()) {
    const lifecycle = offboarding.engine.lifecycles.get(workflow.lifecycle ?? '');
    if (own.has(workflow.id) || workflow.state !== 'open' || lifecycle === undefined || (lifecycle.name !== JOINERS && lifecycle.name !== MOVERS)) continue;
    for (const person of await lifecycle.persons.all(workflow.id)) {
      if (lifecycle.name === JOINERS && JOINER_OPEN.has(person.phase)) join.add(person.email);
      if (lifecycle.name === MOVERS && MOVER_OPEN.has(person.phase) && person.userId !== undefined) move.add(person.userId);
    }
  }
  return { join, move };
}

/**
 * The pre-flight every batch has, on the rows these joiners and movers will run: an add (or a reactivation) per
 * joiner, an upgrade or downgrade per mover, classified against the live organization now (already a member,
 * protected, consumer domain, a seat the service will not give…). Its refusals are the joiners' and movers'.
 */
async function preflightChanges(api: SmartsheetApi, joinerCandidates: readonly JoinerCandidate[], moverCandidates: readonly MoverCandidate[], planId: number | undefined, options: PlanSyncOptions): Promise<{ joiners: PlannedJoiner[]; movers: PlannedMover[] }> {
  if (joinerCandidates.length === 0 && moverCandidates.length === 0) return { joiners: [], movers: [] };
  const sendEmail = options.policy.policy.joiners.sendEmail;
  const joinerAction = (candidate: JoinerCandidate): Action =>
    candidate.how === 'reactivate'
      ? { action: 'reactivate', user: { email: candidate.employee.email } }
      : { action: 'add', user: { email: candidate.employee.email }, ...(candidate.employee.firstName === undefined ? {} : { firstName: candidate.employee.firstName }), ...(candidate.employee.lastName === undefined ? {} : { lastName: candidate.employee.lastName }), ...(sendEmail ? { sendEmail } : {}) };
  const moveOf = (candidate: MoverCandidate): 'upgrade' | 'downgrade' => (candidate.user.seat === undefined ? 'upgrade' : (seatMoveOf(candidate.user.seat, candidate.seat.seat) ?? 'upgrade'));
  const moverAction = (candidate: MoverCandidate): Action => {
    const seatType = candidate.seat.seat;
    return (moveOf(candidate) === 'downgrade' ? { action: 'downgrade', user: { email: candidate.employee.email }, ...(planId === undefined ? {} : { planId }), seatType } : { action: 'upgrade', user: { email: candidate.employee.email }, ...(planId === undefined ? {} : { planId }), seatType }) as Action;
  };
  const rows = [...joinerCandidates.map(joinerAction), ...moverCandidates.map(moverAction)].map((action, index) => ({ row: index + 1, line: 0, action }));
  const manifest: LoadedManifest = { path: options.hrExport.path, format: options.hrExport.format, sha256: options.hrExport.sha256, rows, invalid: [], rowCount: rows.length, validCount: rows.length, warnings: [] };
  const planned = await preflight(manifest, { api, protectedAccounts: options.config.guardrails.protectedAccounts });
  // Iterated, not indexed: a plan's rows are a RowList (kept compact), not necessarily an array.
  const byRow = new Map<number, PlannedRow>();
  for (const row of planned.rows) byRow.set(row.row, row);
  const verdictOf = (index: number) => {
    const row = byRow.get(index + 1);
    return { verdict: row?.verdict ?? 'invalid', ...(row?.reason === undefined ? {} : { reason: row.reason }), ...(row?.rule === undefined ? {} : { rule: row.rule }) };
  };
  const joiners = joinerCandidates.map((candidate, index): PlannedJoiner => ({ ...candidate, ...verdictOf(index), cost: joinCost(candidate) }));
  const movers = moverCandidates.map((candidate, index): PlannedMover => ({ ...candidate, action: moveOf(candidate), ...verdictOf(joinerCandidates.length + index) }));
  return { joiners, movers };
}

/** What a joiner's seat costs (docs/service.md#add-user): the add's seat, then the policy's. */
function joinCost(candidate: JoinerCandidate): string {
  const first = candidate.how === 'reactivate' ? 'reactivation assigns a Member seat (paid)' : seatCostOfAdd({});
  const given = candidate.how === 'reactivate' ? 'MEMBER' : 'PROVISIONAL_MEMBER';
  const wanted = candidate.seat.seat;
  if (wanted === given) return `${first}; the policy gives ${wanted} (${candidate.seat.rule})`;
  const then = wanted === 'MEMBER' ? 'then upgraded to a paid MEMBER seat' : `then ${wanted === 'PROVISIONAL_MEMBER' ? 'kept as it is (no seat change leads to PROVISIONAL_MEMBER)' : `changed to ${wanted} (free; a downgrade waits until the user is active)`}`;
  return `${first}; ${then} (${candidate.seat.rule})`;
}
