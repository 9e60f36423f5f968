import type { AuditLog } from './audit-log.js';

/** Who asked, and how (`dashboard`, `control API`, `cli`), with the ticket or reason they gave. */
export interface ControlRequest {
  by: string;
  via: string;
  reason?: string | undefined;
}

/**
 * A cancel, a retry or a schedule's run now as the trail keeps it: whoever asks, from the CLI, the API or the
 * dashboard, and what it did. Each is a change someone asked for, so each is in the trail with who.
 */
export async function auditCancel(audit: AuditLog, batchId: string, request: ControlRequest, result: { cancelled: number; running: number }): Promise<void> {
  await audit.append({ event: 'batch.cancelled', actor: request.by, subject: batchId, reason: request.reason, data: { via: request.via, cancelled: result.cancelled, running: result.running } });
}

export async function auditRetry(audit: AuditLog, batchId: string, request: ControlRequest, result: { requeued: number; resumed: number; rerun?: number | undefined }): Promise<void> {
  await audit.append({ event: 'batch.retried', actor: request.by, subject: batchId, reason: request.reason, data: { via: request.via, requeued: result.requeued, resumed: result.resumed, ...(result.rerun === undefined ? {} : { rerun: result.rerun }) } });
}

export async function auditScheduleRun(audit: AuditLog, schedule: string, request: ControlRequest, queued: { jobId: string }): Promise<void> {
  await audit.append({ event: 'schedule.run', actor: request.by, subject: schedule, reason: request.reason, data: { via: request.via, jobId: queued.jobId } });
}
