import type { Logger } from '../../core/logger.js';
import type { BatchStoreHooks } from '../../queue/batch-store.js';
import type { RowOutcome } from '../../queue/row-outcome.js';
import type { AuditLog } from './audit-log.js';

/** Who appends row entries: the worker that ran the row (the person who asked is on the batch's request entry). */
export const WORKER_ACTOR = 'worker';

/**
 * Rows the service was asked to change: those that reached it (or may have). Rows the plan skipped, already-done rows
 * no call was made for, and cancelled rows changed nothing and are in the batch's report, not the audit trail.
 */
export function reachedTheService(outcome: RowOutcome): boolean {
  if (outcome.outcome === 'succeeded' || outcome.outcome === 'failed' || outcome.outcome === 'unknown') return true;
  return outcome.outcome === 'unchanged' && outcome.attempts > 0;
}

/** The entry of one row: the change asked for and the service's answer. No token or secret is in an outcome. */
export function rowEntryData(outcome: RowOutcome): Record<string, unknown> {
  const pick = <K extends keyof RowOutcome>(...fields: K[]) =>
    Object.fromEntries(fields.filter((field) => outcome[field] !== undefined).map((field) => [field, outcome[field]]));
  return pick('row', 'action', 'email', 'userId', 'subject', 'outcome', 'category', 'status', 'errorCode', 'refId', 'message', 'attempts', 'confirmed', 'detail', 'sim');
}

/**
 * The batch store's hook that appends one `row.applied` entry per row the service was asked to change: the one place
 * every outcome is recorded (src/queue), so every job type, step and retry is covered alike. A failed append is
 * logged, never thrown: the row's outcome stands either way (and stays in the batch's report).
 */
export function auditRowHooks(audit: AuditLog, logger: Logger): BatchStoreHooks {
  return {
    async onOutcome(outcome) {
      if (!reachedTheService(outcome)) return;
      try {
        await audit.append({ event: 'row.applied', actor: WORKER_ACTOR, subject: outcome.batchId, data: rowEntryData(outcome) });
      } catch (error) {
        logger.error({ err: error, batch: outcome.batchId, row: outcome.row }, 'could not append the row to the audit log');
      }
    },
  };
}
