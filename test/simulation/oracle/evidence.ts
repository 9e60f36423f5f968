import type { Mutation } from '../../../src/server/sim/mutation-log.js';
import type { ChangePromise, OutcomeRef } from '../ledger/promise.js';
import type { ServiceUser } from '../world/service-controls.js';
import type { Identities } from './identities.js';

/** A row's outcome as seatflow reports it (`GET /v1/batches/:id/outcomes`, `seatflow report`): what the oracle reads. */
export interface ReportedOutcome {
  batchId: string;
  row: number;
  outcome: string;
  email?: string;
  userId?: number;
  status?: number;
  errorCode?: number;
  category?: string;
  rule?: string;
  message?: string;
  confirmed?: boolean;
  attempts?: number;
}

/** An entry of the audit trail, as much as the oracle reads. */
export interface AuditLine {
  event: string;
  subject?: string;
  /** `change.outside` entries add the event, the user's id, when the service says it happened and why it is outside. */
  data?: { row?: number; email?: string; outcome?: string; confirmed?: boolean; action?: string; event?: string; userId?: number; at?: string; why?: string };
}

/** A leaver as `GET /v1/offboardings/:id` shows them at the end. */
export interface ReportedLeaver {
  email: string;
  userId?: number;
  phase: string;
  /** What happened to them, as seatflow tells people (`undo-failed` for an undone leaver whose reactivation failed). */
  status?: string;
  reason?: string;
}

/**
 * Everything the oracle judges by, gathered once the run is over: what seatflow promised (the ledger), what the
 * service did (the mutation log, its users at the start and the end), and what seatflow says (outcomes, offboarding
 * statuses, the audit trail).
 */
export interface Evidence {
  promises: readonly ChangePromise[];
  mutations: readonly Mutation[];
  identities: Identities;
  initialUsers: readonly ServiceUser[];
  finalUsers: readonly ServiceUser[];
  outcomeOf(ref: OutcomeRef): ReportedOutcome | undefined;
  offboardings: readonly { id: string; eventSeq: number; state?: string; leavers: readonly ReportedLeaver[] }[];
  audit: { intact: boolean; detail: string; entries: readonly AuditLine[] };
  /** Batches whose outcomes the API would not serve (status), though it lists them: what seatflow could not say. */
  unreadable: readonly string[];
  /** What `seatflow steps --json` lists to come once the run settled (undefined: it could not be read). */
  stepsToCome: readonly StepToCome[] | undefined;
}

/** A step `seatflow steps` lists as still to come. */
export interface StepToCome {
  workflowId: string;
  email: string;
  step: string;
  phase: string;
  dueAt: string;
  /** Where its job is (running, row-queued, queued, waiting, gave-up, missing): what a step that never ran was stuck on. */
  job?: string;
}
