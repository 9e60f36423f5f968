import type { UndoResult } from '../../workflow/undo-offboarding.js';
import type { AuditLog } from './audit-log.js';

/** An undo of an offboarding, as the trail keeps it: who, why, and per leaver what it did. */
export async function auditUndo(audit: AuditLog, undo: { workflowId: string; by: string; reason?: string | undefined; results: readonly UndoResult[] }): Promise<void> {
  if (undo.results.length === 0) return;
  await audit.append({
    event: 'offboarding.undone',
    actor: undo.by,
    subject: undo.workflowId,
    reason: undo.reason,
    data: { leavers: undo.results.map((result) => ({ email: result.email, result: result.result, reactivating: result.reactivating, message: result.message })) },
  });
}
