import path from 'node:path';
import { hrWorkflowsOf } from '../sync/hr-workflows.js';
import { writePersonReport } from '../workflow/person-report.js';
import { formatWorkflowStatus } from '../workflow/person-status.js';
import type { BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { openOffboarding } from './offboarding-runtime.js';

/** `seatflow status J…|M…`: per joiner or mover, the step done, the next step and when, until when undo can stop it. */
export async function printHrWorkflowStatus(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, json: boolean): Promise<boolean> {
  const status = await hrWorkflowsOf(openOffboarding(runtime, batch)).status(workflowId);
  if (status === undefined) return false;
  process.stdout.write(json ? `${JSON.stringify(status)}\n` : formatWorkflowStatus(status));
  return true;
}

/** `seatflow report J…|M…`: one row per joiner or mover (see person-report.ts); false when the id names none. */
export async function writeHrWorkflowReport(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, out: string | undefined): Promise<boolean> {
  const found = await hrWorkflowsOf(openOffboarding(runtime, batch)).report(workflowId);
  if (found === undefined) return false;
  const { report, workflow } = found;
  const file = out ?? path.join(runtime.config.dataDir, 'reports', `${workflowId}${workflow.sim ? '-simulation' : ''}.csv`);
  await writePersonReport(report, file);
  process.stdout.write(`Report of ${workflow.lifecycle} ${workflowId}${workflow.sim ? ' (SIMULATION)' : ''}: ${report.rows.length} people, as of ${String(report.rows[0]?.reportedAt ?? 'now')}: ${path.resolve(file)}\n`);
  return true;
}
