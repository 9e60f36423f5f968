import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { BatchStore } from '../queue/batch-store.js';
import { neutraliseCell, reportFormatOf } from '../queue/report-writer.js';
import type { Lifecycle } from './lifecycle.js';
import type { PersonBase, WorkflowBase } from './workflow-shapes.js';
import type { StepBatchRef } from './person-ends.js';
import type { PersonDescription } from './person-status.js';

/** One report row per person: what the lifecycle says of them, and each step batch's outcome, time and message. */
export type PersonReportRow = Record<string, string | number | boolean | object | undefined>;

const LEADING = ['row', 'line', 'email', 'userId', 'phase', 'reason', 'rule'] as const;
const TRAILING = ['undoneBy', 'undoneAt', 'notes', 'steps', 'workflowId', 'lifecycle', 'sim', 'reportedAt'] as const;

export interface PersonReport {
  columns: string[];
  rows: PersonReportRow[];
}

/**
 * The report of a workflow of any lifecycle, as things stand at `reportedAt` (a snapshot: steps still to come change
 * it; `seatflow report ID` writes it again).
 */
export async function personReport<R extends WorkflowBase, P extends PersonBase & { undo?: { by: string; at: string } | undefined }>(
  lifecycle: Lifecycle<R, P>,
  describe: PersonDescription<P>,
  workflow: R,
  stepBatches: readonly (StepBatchRef & { name: string })[],
  batches: BatchStore,
  reportedAt: Date,
): Promise<PersonReport> {
  const people = await lifecycle.persons.all(workflow.id);
  const details = [...new Set(people.flatMap((person) => Object.keys(describe.detail(person))))];
  const columns = [...LEADING, ...details, ...stepBatches.flatMap(({ name }) => [name, `${name}At`, `${name}Message`]), ...TRAILING];
  const rows: PersonReportRow[] = [];
  for (const person of people) {
    const row: PersonReportRow = { row: person.row, line: person.line, email: person.email, userId: person.userId, phase: person.phase, reason: person.reason, rule: person.rule, ...describe.detail(person) };
    for (const { name, batchId } of stepBatches) {
      const outcome = await batches.getOutcome(batchId, person.row);
      Object.assign(row, { [name]: outcome?.outcome, [`${name}At`]: outcome?.finishedAt, [`${name}Message`]: outcome?.message });
    }
    Object.assign(row, { undoneBy: person.undo?.by, undoneAt: person.undo?.at, notes: person.notes.length === 0 ? undefined : person.notes, steps: person.steps, workflowId: workflow.id, lifecycle: lifecycle.name, sim: workflow.sim, reportedAt: reportedAt.toISOString() });
    rows.push(row);
  }
  return { columns, rows };
}

/** CSV (cells that could run as formulas neutralised; objects as JSON) or JSON Lines, by the file's extension. */
export function formatPersonReport(report: PersonReport, format: 'csv' | 'jsonl'): string {
  if (format === 'jsonl') return report.rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  const cell = (value: PersonReportRow[string]): string => {
    if (value === undefined) return '';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return neutraliseCell(typeof value === 'object' ? JSON.stringify(value) : value);
  };
  return stringify([report.columns, ...report.rows.map((row) => report.columns.map((column) => cell(row[column])))]);
}

export async function writePersonReport(report: PersonReport, file: string): Promise<void> {
  const format = reportFormatOf(file);
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const out = createWriteStream(file);
  out.end(formatPersonReport(report, format));
  await once(out, 'finish');
}
