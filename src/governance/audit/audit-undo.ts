import type { CancelResult } from '../../workflow/cancel-pending.js';
import type { UndoResult } from '../../workflow/undo-offboarding.js';
import type { AuditEvent } from './audit-entry.js';
import type { AuditLog } from './audit-log.js';

interface Undo<R> {
  workflowId: string;
  by: string;
  reason?: string | undefined;
  results: readonly R[];
}

/** An undo as the trail keeps it: who, why, and per person what it did; nothing when it did nothing. */
async function appendUndo<R>(audit: AuditLog, event: AuditEvent, undo: Undo<R>, data: Record<string, unknown>): Promise<void> {
  if (undo.results.length === 0) return;
  await audit.append({ event, actor: undo.by, subject: undo.workflowId, reason: undo.reason, data });
}

/** An undo of an offboarding: per leaver, what it did and whether a reactivation was queued. */
export async function auditUndo(audit: AuditLog, undo: Undo<UndoResult>): Promise<void> {
  await appendUndo(audit, 'offboarding.undone', undo, { leavers: undo.results.map((result) => ({ email: result.email, result: result.result, reactivating: result.reactivating, message: result.message })) });
}

/** An undo of joiners or movers of a sync (stopped before their step ran): per person, what it did. */
export async function auditWorkflowUndo(audit: AuditLog, undo: Undo<CancelResult>): Promise<void> {
  await appendUndo(audit, 'workflow.undone', undo, { persons: undo.results.map((result) => ({ email: result.email, result: result.result, message: result.message })) });
}
