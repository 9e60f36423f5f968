import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { BatchStore } from '../queue/batch-store.js';
import { neutraliseCell, reportFormatOf } from '../queue/report-writer.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { stepBatchIdOf, type StepBatch } from './leaver-ends.js';
import type { LeaverState } from './leaver-state.js';
import type { WorkflowRecord } from './workflow-store.js';

export const OFFBOARDING_REPORT_COLUMNS = [
  'row', 'line', 'email', 'userId', 'phase', 'reason', 'leaveAt', 'stateBefore', 'deactivate', 'deactivatedAt', 'deactivateMessage',
  'holdUntil', 'remove', 'removedAt', 'removeMessage', 'transferPlanned', 'transferUsed', 'handedOver', 'undoneBy', 'undoneAt',
  'reactivate', 'reactivatedAt', 'reactivateMessage', 'restore', 'restoredAt', 'restoreMessage', 'steps', 'workflowId', 'sim', 'reportedAt',
] as const;
export type OffboardingReportRow = Partial<Record<(typeof OFFBOARDING_REPORT_COLUMNS)[number], string | number | boolean | object>>;

/** The step outcomes of one leaver, by step batch. */
export type LeaverOutcomes = Partial<Record<StepBatch, RowOutcome>>;

/**
 * One report row per leaver: every step with its time and outcome, the state before, the transfer target used and
 * the seat given back after an undo. `reportedAt`: the report is what stood then (a snapshot; the steps still to come
 * change it: `seatflow report OFFBOARDING` writes it again).
 */
export function offboardingReportRow(workflow: WorkflowRecord, leaver: LeaverState, outcomes: LeaverOutcomes, reportedAt: Date): OffboardingReportRow {
  const { deactivate, remove, reactivate, restore } = outcomes;
  const groups = leaver.groupsAtRemoval ?? leaver.stateBefore?.groupsOwned;
  // The service answers a removal with SUCCESS and no counts: what moved is what the user owned at the re-check just
  // before it (else at the leave date), to whom.
  const handedOver =
    remove !== undefined && (remove.outcome === 'succeeded') && leaver.transferUsed !== undefined
      ? `${groups === undefined ? 'groups (count not reported)' : `${groups.length} group(s)`} and owned sheets to ${leaver.transferUsed.email}`
      : undefined;
  return {
    row: leaver.row,
    line: leaver.line,
    email: leaver.email,
    userId: leaver.userId,
    phase: leaver.phase,
    reason: leaver.reason,
    leaveAt: new Date(leaver.leaveAt).toISOString(),
    stateBefore: leaver.stateBefore,
    deactivate: deactivate?.outcome,
    deactivatedAt: deactivate?.finishedAt,
    deactivateMessage: deactivate?.message,
    holdUntil: leaver.holdUntil === undefined ? undefined : new Date(leaver.holdUntil).toISOString(),
    remove: remove?.outcome,
    removedAt: remove?.finishedAt,
    removeMessage: remove?.message,
    transferPlanned: leaver.transferTo?.email,
    transferUsed: leaver.transferUsed?.email,
    handedOver,
    undoneBy: leaver.undo?.by,
    undoneAt: leaver.undo?.at,
    reactivate: reactivate?.outcome,
    reactivatedAt: reactivate?.finishedAt,
    reactivateMessage: reactivate?.message,
    restore: restore?.outcome,
    restoredAt: restore?.finishedAt,
    restoreMessage: restore?.message,
    steps: leaver.steps,
    workflowId: workflow.id,
    sim: workflow.sim,
    reportedAt: reportedAt.toISOString(),
  };
}

/** Every leaver's report row, as things stand at `reportedAt` (the service clock's now). */
export async function offboardingReportRows(workflow: WorkflowRecord, leavers: readonly LeaverState[], batches: BatchStore, reportedAt: Date): Promise<OffboardingReportRow[]> {
  const steps = (['deactivate', 'remove', 'reactivate', 'restore'] as const).flatMap((step) => {
    const batchId = stepBatchIdOf(workflow, step);
    return batchId === undefined ? [] : [{ step, batchId }];
  });
  return Promise.all(
    leavers.map(async (leaver) => {
      const outcomes: LeaverOutcomes = {};
      for (const { step, batchId } of steps) {
        const outcome = await batches.getOutcome(batchId, leaver.row);
        if (outcome !== undefined) outcomes[step] = outcome;
      }
      return offboardingReportRow(workflow, leaver, outcomes, reportedAt);
    }),
  );
}

/** CSV (cells that could run as formulas neutralised; objects as JSON) or JSON Lines, by the file's extension. */
export function formatOffboardingReport(rows: readonly OffboardingReportRow[], format: 'csv' | 'jsonl'): string {
  if (format === 'jsonl') return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const cell = (value: OffboardingReportRow[keyof OffboardingReportRow]): string => {
    if (value === undefined) return '';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return neutraliseCell(typeof value === 'object' ? JSON.stringify(value) : value);
  };
  return stringify([[...OFFBOARDING_REPORT_COLUMNS], ...rows.map((row) => OFFBOARDING_REPORT_COLUMNS.map((column) => cell(row[column])))]);
}

export async function writeOffboardingReport(rows: readonly OffboardingReportRow[], file: string): Promise<void> {
  const format = reportFormatOf(file);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const out = createWriteStream(file);
  out.end(formatOffboardingReport(rows, format));
  await once(out, 'finish');
}
