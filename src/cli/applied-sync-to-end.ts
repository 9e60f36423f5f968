import { hrWorkflowsOf } from '../sync/hr-workflows.js';
import type { AppliedSync } from '../sync/apply-sync.js';
import { formatWorkflowStatus } from '../workflow/person-status.js';
import { formatOffboardingStatus } from '../workflow/offboarding-status.js';
import { createBudgetedApi, type BatchRuntime } from './batch-runtime.js';
import type { CliRuntime } from './cli-runtime.js';
import { openOffboarding, workUntil } from './offboarding-runtime.js';

export interface AppliedSyncToEndOptions {
  /** Run what is due now in this process until it settles (`--no-wait`: false, a worker takes it). */
  wait: boolean;
  /** Print only what was queued (the caller prints JSON of the run). */
  json: boolean;
  /** A line said once the workflows are listed, before anything runs (that the export is accepted). */
  queuedNote: string;
}

/**
 * After a sync's plan was queued (by `sync --apply`, or by the approval of a sync that waited): says what was queued,
 * runs what is due now here until every workflow of the run settles (unless told not to wait), then how each stands.
 * Exit 0 done, 1 someone failed, 130 interrupted.
 */
export async function appliedSyncToEnd(runtime: CliRuntime, batch: BatchRuntime, applied: AppliedSync, options: AppliedSyncToEndOptions): Promise<number> {
  const out = process.stdout;
  for (const undo of applied.undos) out.write(`${undo.email}: offboarding ${undo.workflowId} ${undo.result}: ${undo.message}\n`);
  for (const transfer of applied.transfers) out.write(`${transfer.email}: offboarding ${transfer.workflowId} transfer target ${transfer.result}: ${transfer.message}\n`);
  const workflows = [applied.joiners && ['Joiners', applied.joiners], applied.movers && ['Movers', applied.movers], applied.offboarding && ['Offboarding', applied.offboarding]].filter((entry): entry is [string, { workflowId: string; created: boolean }] => entry !== undefined);
  for (const [label, { workflowId, created }] of workflows) out.write(`${label} ${workflowId} ${created ? 'queued' : 'was queued before (the same run): nothing queued again'}.\n`);
  out.write(`${options.queuedNote}\n`);
  const offboarding = openOffboarding(runtime, batch);
  const hr = hrWorkflowsOf(offboarding);
  const ids = [...workflows.map(([, entry]) => entry.workflowId), ...applied.undos.map((undo) => undo.workflowId)];
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  try {
    if (options.wait && ids.length > 0) {
      const { api, budget } = createBudgetedApi(runtime, batch);
      const settled = async () => {
        for (const id of ids) if (!(await offboarding.settled(id)) || (await offboarding.stoppedBatch(id)) !== undefined) return false;
        return true;
      };
      await workUntil(runtime, batch, offboarding, { api, budget, done: settled, signal: interrupt.signal });
    }
  } finally {
    process.off('SIGINT', onSignal);
  }
  let failed = 0;
  for (const id of ids) {
    const status = (await hr.status(id)) ?? (await offboarding.status(id));
    if (status === undefined) continue;
    if ('persons' in status) {
      failed += status.persons.filter((person) => person.phase === 'failed').length;
      if (!options.json) out.write(`\n${formatWorkflowStatus(status)}`);
    } else {
      failed += status.leavers.filter((leaver) => leaver.phase === 'failed').length;
      if (!options.json) out.write(`\n${formatOffboardingStatus(status)}`);
    }
  }
  if (ids.length > 0) {
    out.write(
      runtime.sim
        ? 'SIMULATION: the embedded reference server ends with this process, so the steps still to come will not run.\n'
        : `Steps to come run on a worker: keep  seatflow worker  running (see them: seatflow steps; undo before a step runs: seatflow undo ID [--user EMAIL]).\n`,
    );
  }
  if (interrupt.signal.aborted) return 130;
  return failed > 0 ? 1 : 0;
}
