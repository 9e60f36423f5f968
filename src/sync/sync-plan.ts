import type { GuardrailCheck } from '../plan/guardrails.js';
import type { Verdict } from '../plan/planned-row.js';
import type { OffboardingPlan } from '../workflow/plan-offboarding.js';
import type { AcceptedExport } from './accepted-exports.js';
import type { KeptEmployee } from './employee.js';
import type { JoinerCandidate, Listed, MoverCandidate, TransferCandidate, UndoCandidate } from './sync-candidates.js';

/** A joiner as planned: the candidate, the pre-flight's verdict on its add (or reactivation), and what it costs. */
export interface PlannedJoiner extends JoinerCandidate {
  verdict: Verdict;
  reason?: string;
  rule?: string;
  /** The seat the add (or the reactivation) gives, then the seat the policy gives, in words. */
  cost: string;
}

/** A mover as planned: the candidate and the pre-flight's verdict on the seat row as things stand now. */
export interface PlannedMover extends MoverCandidate {
  action: 'upgrade' | 'downgrade';
  verdict: Verdict;
  reason?: string;
  rule?: string;
}

/** The accidental-deletion threshold, as this export measures against it. */
export interface MissingCheck {
  /** Employees of the accepted export this export lacks. */
  gone: number;
  /** Leavers because they are absent (gone, or not in the export with notInExport "offboard"). */
  absentLeavers: number;
  /** What the share is of: the accepted export's employees, or the organization's users on a first sync. */
  base: number;
  share: number;
  threshold: number;
  /** At or above the threshold: a broken export, not a layoff; nothing is done unless confirmed. */
  broken: boolean;
}

export interface SyncPlan {
  /** `<policy key>@<export sha256, 12>`: names the run, its workflows and its report. */
  runId: string;
  /** Hash of target, policy and export: the identity of the workflows this run submits. */
  runHash: string;
  /** The ids this run's workflows have (from runHash), made or not: a refused run's report names them. */
  workflowIds: { joiners: string; movers: string; offboarding: string };
  target: string;
  plannedAt: number;
  export: { path: string; sha256: string; format: string; employees: number; exportedAt: number; exportedAtFrom: 'column' | 'file-modified'; ignored: string[] };
  policy: { path: string; sha256: string; key: string };
  previous?: AcceptedExport;
  planId?: number;
  organizationUsers: number;
  joiners: PlannedJoiner[];
  movers: PlannedMover[];
  /** The offboarding of this run's leavers, planned by the offboarding lifecycle's own plan; undefined when none. */
  leavers?: OffboardingPlan;
  /** Why each leaver (by row of the offboarding plan) leaves, and their employee id when the export has them. */
  leaverCauses: Record<number, { cause: string; employeeId?: string }>;
  undos: UndoCandidate[];
  transfers: TransferCandidate[];
  notInExport: Listed[];
  protected: Listed[];
  listed: Listed[];
  missing: MissingCheck;
  guardrails: GuardrailCheck;
  apiCalls: number;
  /** What is kept of this export once accepted, by employee id (compact: a CompactJsonMap). */
  kept: ReadonlyMap<string, KeptEmployee>;
}

/** Changes a plan would make (joiners, movers and leavers not refused, undos, transfer updates). */
export function changesOf(plan: SyncPlan): number {
  const leavers = plan.leavers?.leavers.filter((leaver) => leaver.verdict !== 'refused').length ?? 0;
  return plan.joiners.filter((joiner) => joiner.verdict === 'change').length + plan.movers.filter((mover) => mover.verdict === 'change').length + leavers + plan.undos.length + plan.transfers.length;
}
