import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { neutraliseCell } from '../queue/report-writer.js';
import type { AppliedSync } from './apply-sync.js';
import type { SyncDisposition } from './sync-disposition.js';
import { changesOf, type SyncPlan } from './sync-plan.js';

export const SYNC_REPORT_COLUMNS = [
  'run', 'kind', 'employeeId', 'email', 'userId', 'cause', 'action', 'seatBefore', 'seat', 'seatRule', 'due', 'verdict', 'refusal', 'reason', 'workflowId',
] as const;
type Line = Partial<Record<(typeof SYNC_REPORT_COLUMNS)[number], string | number | undefined>>;

/**
 * Every line of a sync plan: each joiner, mover and leaver with the rule that caused it (what in the export, which seat
 * rule), each undo and transfer update, and everyone protected, listed or not in the export. Streamed to the CSV, so a
 * plan of 100,000 employees is written without holding its lines.
 */
export function* syncReportLines(plan: SyncPlan, applied: AppliedSync | undefined, disposition?: SyncDisposition): Generator<Line> {
  const run = plan.runId;
  // A run refused as not acknowledged may still run as planned: its lines name the workflows it would be kept as.
  const workflowOf = (part: 'joiners' | 'movers' | 'offboarding') => applied?.[part]?.workflowId ?? (disposition?.notAcknowledged === true ? plan.workflowIds[part] : undefined);
  const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
  for (const joiner of plan.joiners) {
    yield { run, kind: 'joiner', employeeId: joiner.employee.employeeId, email: joiner.employee.email, userId: joiner.userId, cause: joiner.cause, action: joiner.how, seat: joiner.seat.seat, seatRule: joiner.seat.rule, due: iso(joiner.dueAt), verdict: joiner.verdict, refusal: joiner.rule, reason: joiner.verdict === 'change' ? joiner.cost : joiner.reason, workflowId: workflowOf('joiners') };
  }
  for (const mover of plan.movers) {
    yield { run, kind: 'mover', employeeId: mover.employee.employeeId, email: mover.employee.email, userId: mover.user.id, cause: mover.cause, action: mover.action, seatBefore: mover.user.seat, seat: mover.seat.seat, seatRule: mover.seat.rule, due: iso(mover.dueAt), verdict: mover.verdict, refusal: mover.rule, reason: mover.reason, workflowId: workflowOf('movers') };
  }
  for (const leaver of plan.leavers?.leavers ?? []) {
    const transfer = leaver.transferTo === undefined ? 'no transfer target' : `transfer to ${leaver.transferTo.email}`;
    yield { run, kind: 'leaver', employeeId: plan.leaverCauses[leaver.row]?.employeeId, email: leaver.email, userId: leaver.userId, cause: plan.leaverCauses[leaver.row]?.cause, action: leaver.verdict, due: iso(leaver.leaveAt), verdict: leaver.verdict === 'refused' ? 'refused' : 'change', refusal: leaver.rule, reason: leaver.reason ?? [transfer, ...leaver.notes].join('; '), workflowId: workflowOf('offboarding') };
  }
  for (const undo of plan.undos) yield { run, kind: 'undo', employeeId: undo.employee.employeeId, email: undo.employee.email, userId: undo.user.id, cause: undo.cause, action: 'undo offboarding', verdict: 'change', workflowId: undo.workflowId };
  for (const transfer of plan.transfers) yield { run, kind: 'transfer', employeeId: transfer.employee.employeeId, email: transfer.employee.email, cause: `manager ${transfer.from ?? '(none)'} → ${transfer.to}`, action: 'transfer target', verdict: 'change', workflowId: transfer.workflowId };
  for (const item of plan.protected) yield { run, kind: 'protected', employeeId: item.employeeId, email: item.email, reason: item.note };
  for (const item of plan.listed) yield { run, kind: 'listed', employeeId: item.employeeId, email: item.email, reason: item.note };
  for (const item of plan.notInExport) yield { run, kind: 'not-in-export', email: item.email, reason: item.note };
}

/** The run in one object: what `schedule list` and the JSON report show. */
export function syncSummary(plan: SyncPlan, disposition: SyncDisposition, applied: AppliedSync | undefined) {
  const count = <T extends { verdict: string }>(items: readonly T[]) => ({ change: items.filter((item) => item.verdict === 'change').length, other: items.filter((item) => item.verdict !== 'change').length });
  const leavers = plan.leavers?.leavers ?? [];
  return {
    ...disposition,
    export: { ...plan.export, exportedAt: new Date(plan.export.exportedAt).toISOString() },
    policy: plan.policy,
    previous: plan.previous ?? null,
    planId: plan.planId,
    plannedAt: new Date(plan.plannedAt).toISOString(),
    organizationUsers: plan.organizationUsers,
    changes: changesOf(plan),
    joiners: count(plan.joiners),
    movers: count(plan.movers),
    leavers: { change: leavers.filter((leaver) => leaver.verdict !== 'refused').length, other: leavers.filter((leaver) => leaver.verdict === 'refused').length },
    undos: plan.undos.length,
    transfers: plan.transfers.length,
    protected: plan.protected.length,
    listed: plan.listed.length,
    notInExport: plan.notInExport.length,
    missing: plan.missing,
    guardrails: plan.guardrails.reasons,
    apiCalls: plan.apiCalls,
    applied: applied ?? null,
  };
}

/** Writes `<stem>.csv` (one line per person, cells that could run as formulas neutralised) and `<stem>.json` (the run). */
export async function writeSyncReport(plan: SyncPlan, disposition: SyncDisposition, applied: AppliedSync | undefined, stem: string): Promise<{ csv: string; json: string }> {
  await mkdir(path.dirname(path.resolve(stem)), { recursive: true });
  const csv = `${stem}.csv`;
  const json = `${stem}.json`;
  const out = createWriteStream(csv);
  out.write(stringify([[...SYNC_REPORT_COLUMNS]]));
  for (const line of syncReportLines(plan, applied, disposition)) {
    if (!out.write(stringify([SYNC_REPORT_COLUMNS.map((column) => cell(line[column]))]))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  await writeFile(json, `${JSON.stringify(syncSummary(plan, disposition, applied), null, 2)}\n`);
  return { csv, json };
}

function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? String(value) : neutraliseCell(value);
}
