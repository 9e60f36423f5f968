import { CompactJsonMap } from '../manifest/compact-json-map.js';
import { CompactStringSet } from '../manifest/compact-string-set.js';
import type { LeaveDateSource } from '../workflow/read-leavers.js';
import { leavingOwnerOf } from '../workflow/workflow-store.js';
import type { LiveLookup } from './live-index.js';
import type { LiveMember } from './live-member.js';
import { keptOf, type Employee, type KeptEmployee } from './employee.js';
import type { LifecyclePolicy } from './lifecycle-policy.js';
import { attributeChanges, seatFor, type SeatChoice } from './seat-rules.js';
import { protectionOf } from './sync-protection.js';

export interface JoinerCandidate {
  employee: Employee;
  /** add: not in the organization; reactivate: a deactivated member coming back (a rehire). */
  how: 'add' | 'reactivate';
  userId?: number;
  seat: SeatChoice;
  cause: string;
  dueAt: number;
}

export interface MoverCandidate {
  employee: Employee;
  user: LiveMember;
  seat: SeatChoice;
  cause: string;
  dueAt: number;
}

export interface LeaverCandidate {
  row: number;
  line: number;
  email: string;
  employeeId?: string;
  /** Undefined: now. */
  leaveAt?: number;
  leaveDate?: LeaveDateSource;
  transferTo?: string;
  cause: string;
  /** Counts toward the accidental-deletion threshold: gone from the export, or not in it. */
  absent: boolean;
}

/** A person leaving in an open offboarding whom the export now has as employed again: undo it for them. */
export interface UndoCandidate {
  employee: Employee;
  user: LiveMember;
  workflowId: string;
  row: number;
  cause: string;
}

/** A leaver of an open offboarding whose manager changed: the removal transfers to the new one. */
export interface TransferCandidate {
  employee: Employee;
  workflowId: string;
  row: number;
  from?: string;
  to: string;
}

/** Something the sync saw and did not act on, and why (for the plan and its report). */
export interface Listed {
  email: string;
  employeeId?: string;
  note: string;
}

export interface Candidates {
  joiners: JoinerCandidate[];
  movers: MoverCandidate[];
  leavers: LeaverCandidate[];
  undos: UndoCandidate[];
  transfers: TransferCandidate[];
  /** Users of the organization the export does not have (and never had), with what is done to them. */
  notInExport: Listed[];
  protected: Listed[];
  listed: Listed[];
  /** Employees of the accepted export that this export lacks. */
  gone: number;
  /** What is kept of this export when it is accepted, by employee id (compact: one per employee). */
  kept: CompactJsonMap<KeptEmployee>;
}

/** What a sync compares each employee with: the same for the whole export. */
export interface CandidateContext {
  /** Nothing accepted yet for this target and policy: everything in the export is new. */
  firstSync: boolean;
  /** The live organization by lower-case e-mail (a LiveIndex when read from the service). */
  live: LiveLookup;
  /** Users leaving in an open offboarding: userId → `offboarding <id> row <n>`. */
  leaving: ReadonlyMap<number, string>;
  /** E-mails of joiners whose join step is still to come, and user ids of movers whose move is. */
  pendingJoin: ReadonlySet<string>;
  pendingMove: ReadonlySet<number>;
  policy: LifecyclePolicy;
  /** guardrails.protectedAccounts (e-mails or ids). */
  protectedAccounts: readonly string[];
  callerId: number;
  nowMs: number;
  /** The first row number free for people who are not rows of the export (gone from it, not in it). */
  nextRow: number;
}

export interface CandidateInput extends Omit<CandidateContext, 'firstSync'> {
  /** The export's employees, in its order. */
  employees: Iterable<Employee>;
  /** The last accepted export by employee id; undefined: this is the first sync of this target and policy. */
  previous: ReadonlyMap<string, KeptEmployee> | undefined;
}

/**
 * The comparison a person at a time, so that neither the export nor the accepted export is held: every employee of
 * the export in its order (with what the accepted export kept of them), then every employee of the accepted export
 * (in any order), then `finish`. What it holds per person is compact (off the heap); only the people acted on or
 * listed are objects.
 */
export interface CandidatePass {
  employee(employee: Employee, kept: KeptEmployee | undefined): void;
  /** After the last employee: one of the accepted export (each once). */
  previous(employeeId: string, kept: KeptEmployee): void;
  /** The users of the organization in no export, and the candidates. */
  finish(): Candidates;
}

const keptLeaving = (kept: KeptEmployee | undefined) => kept !== undefined && (kept.s === 'l' || kept.end !== undefined);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/**
 * Who the export makes a joiner, a mover or a leaver, checked against the live organization and the last accepted
 * export. The sync acts on what HR changed: a person is acted on when the export says something new about them
 * (new in it, a new or changed start or end date, a leaver status, gone from it, employed again, moved, a new manager)
 * and the organization needs it (not a member yet, still active, another seat). What was done stays done: an undo or a
 * reactivation by hand is not redone by the next night's export unless HR changes something again. The first sync
 * (nothing accepted yet) takes everything as new, except rehires and moves, which are changes between two exports.
 * Pure: the plan (plan-sync.ts) reads what it needs first, and runs the same comparison a chunk at a time
 * (createCandidatePass).
 */
export function syncCandidates(input: CandidateInput): Candidates {
  const pass = createCandidatePass({ ...input, firstSync: input.previous === undefined });
  for (const employee of input.employees) pass.employee(employee, input.previous?.get(employee.employeeId));
  for (const [employeeId, kept] of input.previous ?? []) pass.previous(employeeId, kept);
  return pass.finish();
}

export function createCandidatePass(input: CandidateContext): CandidatePass {
  const { policy, firstSync, live } = input;
  const out: Candidates = { joiners: [], movers: [], leavers: [], undos: [], transfers: [], notInExport: [], protected: [], listed: [], gone: 0, kept: new CompactJsonMap() };
  const protection = protectionOf({ protect: policy.protect, protectedAccounts: input.protectedAccounts, callerId: input.callerId });
  let nextRow = input.nextRow;
  const inExport = new CompactStringSet();
  // Of the accepted export: its employees' e-mails (a user who was in an export is not "in no export").
  const knownEmails = new CompactStringSet();

  const employee = (employee: Employee, kept: KeptEmployee | undefined): void => {
    inExport.add(employee.email);
    const user = live.get(employee.email);
    const owner = user === undefined ? undefined : input.leaving.get(user.id);
    const leavingIn = owner === undefined ? undefined : leavingOwnerOf(owner);
    const leaving = employee.status === 'leaver' || employee.endAt !== undefined;
    const employed = employee.status !== 'leaver' && (employee.endAt === undefined || employee.endAt > input.nowMs);
    const guard = protection(employee.email, user);
    let keepLeave = true;
    const listed = (note: string) => out.listed.push({ email: employee.email, employeeId: employee.employeeId, note });

    // Employed again (no end date, no leaver status) while still leaving in an open offboarding: a withdrawn
    // termination, or a rehire within the hold.
    if (!leaving && leavingIn !== undefined && user !== undefined && (keptLeaving(kept) || kept === undefined) && !firstSync) {
      if (guard !== undefined) out.protected.push({ email: employee.email, employeeId: employee.employeeId, note: `${guard}: offboarding ${leavingIn.workflowId} not undone` });
      else out.undos.push({ employee, user, ...leavingIn, cause: keptLeaving(kept) ? 'employed again (the last accepted export had them leaving)' : 'back in the export' });
    } else if (employed && (user === undefined || user.status === 'DEACTIVATED')) {
      const newJoin = firstSync || kept === undefined || keptLeaving(kept) || kept.start !== employee.startAt;
      // A rehire is employed with no end date: a deactivated member with an end date still to come is a leaver.
      const rehire = user !== undefined && !leaving && !firstSync && (kept === undefined || keptLeaving(kept));
      if (input.pendingJoin.has(employee.email)) {
        keepLeave = false;
        if (newJoin && kept !== undefined && kept.start !== employee.startAt) listed(`start date changed to ${employee.start?.written ?? 'none'}: the join already queued keeps its date (undo it, and the next sync plans the new one)`);
      } else if (user === undefined && newJoin) {
        keepLeave = false;
        if (guard !== undefined) out.protected.push({ email: employee.email, employeeId: employee.employeeId, note: `${guard}: not added` });
        else out.joiners.push({ employee, how: 'add', seat: seatFor(employee, policy.seats), cause: joinCause(kept, firstSync, employee), dueAt: Math.max(employee.startAt ?? input.nowMs, input.nowMs) });
      } else if (user !== undefined && rehire) {
        if (guard !== undefined) out.protected.push({ email: employee.email, employeeId: employee.employeeId, note: `${guard}: not reactivated` });
        else out.joiners.push({ employee, how: 'reactivate', userId: user.id, seat: seatFor(employee, policy.seats), cause: kept === undefined ? 'back in the export, deactivated in the organization (a rehire)' : 'employed again (the last accepted export had them leaving): a rehire', dueAt: Math.max(employee.startAt ?? input.nowMs, input.nowMs) });
      } else if (user !== undefined && firstSync) {
        listed('deactivated in the organization, employed in the export: not reactivated by a first sync (nothing says they left and came back); reactivate by hand if they should be in');
      } else if (user === undefined) {
        listed('in the export, not in the organization, and nothing changed since the last accepted export (removed by someone, or a join that failed: see its workflow): not added again');
      }
    } else if (employed && user !== undefined && kept !== undefined) {
      const changes = attributeChanges({ department: kept.d, title: kept.t, location: kept.loc }, employee);
      if (changes.length > 0) {
        const before = seatFor({ department: kept.d, title: kept.t, location: kept.loc }, policy.seats);
        const after = seatFor(employee, policy.seats);
        if (after.seat !== before.seat && after.seat !== user.seat && (user.status === 'ACTIVE' || user.status === 'PENDING')) {
          if (input.pendingMove.has(user.id)) listed(`${changes.join(', ')}: a seat change is already queued for them; this one waits for the next sync`);
          else if (guard !== undefined) out.protected.push({ email: employee.email, employeeId: employee.employeeId, note: `${guard}: seat not changed (${changes.join(', ')})` });
          else out.movers.push({ employee, user, seat: after, cause: changes.join(', '), dueAt: Math.max(employee.effectiveAt ?? input.nowMs, input.nowMs) });
        }
      }
    }

    if (leaving) {
      const newLeave = firstSync || kept === undefined || !keptLeaving(kept) || kept.end !== employee.endAt;
      if (user === undefined) {
        // Kept as not leaving while they may still join (a fixed-term joiner): once a member, the end date is new.
        if (employed) keepLeave = false;
      } else if (newLeave && leavingIn !== undefined) {
        if (kept !== undefined && kept.end !== employee.endAt) listed(`end date ${employee.end?.written ?? 'removed'}: already leaving in offboarding ${leavingIn.workflowId}, which keeps its date (seatflow steps run, or undo it and sync again)`);
      } else if (newLeave) {
        if (guard !== undefined) out.protected.push({ email: employee.email, employeeId: employee.employeeId, note: `${guard}: not offboarded` });
        else {
          out.leavers.push({
            row: employee.row,
            line: employee.line,
            email: employee.email,
            employeeId: employee.employeeId,
            ...(employee.endAt === undefined ? {} : { leaveAt: employee.endAt }),
            ...(employee.end === undefined ? {} : { leaveDate: { written: employee.end.written, column: employee.end.column, field: 'leaveDate', dateAlone: employee.end.readAs.includes('last day'), readAs: employee.end.readAs } }),
            ...(employee.managerEmail === undefined ? {} : { transferTo: employee.managerEmail }),
            cause: employee.endAt !== undefined ? `end date ${employee.end?.written ?? day(employee.endAt)}${kept?.end !== undefined ? ` (was ${day(kept.end)})` : ''}` : `status ${employee.statusWritten ?? 'leaver'}`,
            absent: false,
          });
        }
      }
    }

    // A leaver of an open offboarding whose manager changed: the removal transfers to the new manager.
    if (leavingIn !== undefined && employee.managerEmail !== undefined && kept !== undefined && kept.m !== employee.managerEmail && out.undos.every((undo) => undo.employee !== employee)) {
      out.transfers.push({ employee, ...leavingIn, ...(kept.m === undefined ? {} : { from: kept.m }), to: employee.managerEmail });
    }

    const keptNow = keptOf(employee);
    if (!keepLeave) {
      delete keptNow.end;
      if (keptNow.s === 'l') delete keptNow.s;
    }
    out.kept.set(employee.employeeId, keptNow);
  };

  // Gone from the export since the last accepted one: a leaver now, to their last known manager.
  const previous = (employeeId: string, kept: KeptEmployee): void => {
    knownEmails.add(kept.e);
    if (out.kept.has(employeeId)) return;
    out.gone += 1;
    if (inExport.has(kept.e)) return;
    const user = live.get(kept.e);
    if (user === undefined || input.leaving.has(user.id)) return;
    const guard = protection(kept.e, user);
    if (guard !== undefined) {
      out.protected.push({ email: kept.e, employeeId, note: `${guard}: gone from the export, not offboarded` });
      return;
    }
    out.leavers.push({ row: nextRow++, line: 0, email: kept.e, employeeId, ...(kept.m === undefined ? {} : { transferTo: kept.m }), cause: 'gone from the export', absent: true });
  };

  // In the organization, and in no export: listed, and offboarded only when the policy says so.
  const finish = (): Candidates => {
    for (const user of live.values()) {
      if (inExport.has(user.email) || knownEmails.has(user.email)) continue;
      const guard = protection(user.email, user);
      const status = user.status ?? 'status hidden';
      if (guard !== undefined) {
        out.notInExport.push({ email: user.email, note: `${status}; ${guard}: never touched` });
      } else if (policy.notInExport === 'offboard' && user.status !== undefined && !input.leaving.has(user.id)) {
        out.notInExport.push({ email: user.email, note: `${status}; offboarded (the policy's notInExport)` });
        out.leavers.push({ row: nextRow++, line: 0, email: user.email, cause: 'not in the export (the policy\'s notInExport: "offboard")', absent: true });
      } else {
        out.notInExport.push({ email: user.email, note: `${status}; listed only (the policy's notInExport: "${policy.notInExport}")` });
      }
    }
    return out;
  };
  return { employee, previous, finish };
}

function joinCause(kept: KeptEmployee | undefined, firstSync: boolean, employee: Employee): string {
  if (firstSync) return 'in the export, not in the organization (first sync)';
  if (kept === undefined) return 'new in the export';
  if (keptLeaving(kept)) return 'employed again (the last accepted export had them leaving)';
  return `start date changed to ${employee.start?.written ?? 'none'}`;
}
