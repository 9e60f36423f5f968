import path from 'node:path';
import { domainMigrationsOf } from '../migrate/domain-migrations.js';
import type { CancelRequest, CancelResult } from '../workflow/cancel-pending.js';
import { writePersonReport } from '../workflow/person-report.js';
import { formatWorkflowStatus } from '../workflow/person-status.js';
import type { BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { openOffboarding } from './offboarding-runtime.js';

/** `seatflow status D…`: per user of a domain migration, the step done, the next check and when; false when none. */
export async function printDomainMigrationStatus(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, json: boolean): Promise<boolean> {
  const status = await domainMigrationsOf(openOffboarding(runtime, batch).engine).status(workflowId);
  if (status === undefined) return false;
  process.stdout.write(json ? `${JSON.stringify(status)}\n` : formatWorkflowStatus(status));
  return true;
}

/** `seatflow report D…`: one row per user (person-report.ts), with each step batch's outcome; false when none. */
export async function writeDomainMigrationReport(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, out: string | undefined): Promise<boolean> {
  const found = await domainMigrationsOf(openOffboarding(runtime, batch).engine).report(workflowId);
  if (found === undefined) return false;
  const { report, workflow } = found;
  const file = out ?? path.join(runtime.config.dataDir, 'reports', `${workflowId}${workflow.sim ? '-simulation' : ''}.csv`);
  await writePersonReport(report, file);
  process.stdout.write(`Report of domain migration ${workflowId}${workflow.sim ? ' (SIMULATION)' : ''}: ${report.rows.length} users, as of ${String(report.rows[0]?.reportedAt ?? 'now')}: ${path.resolve(file)}\n`);
  return true;
}

/** `seatflow undo D…`: users whose migrate step has not run are not migrated; undefined when the id names none. */
export function undoDomainMigration(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, request: CancelRequest): Promise<CancelResult[] | undefined> {
  return domainMigrationsOf(openOffboarding(runtime, batch).engine).undo(workflowId, request);
}
