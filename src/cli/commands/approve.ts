import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { UsageError } from '../../core/seatflow-error.js';
import { createBudgetedApi, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { watchBatch } from '../batch-progress.js';
import { exitCodeOf, formatBatchSummary } from '../batch-summary.js';
import { cliActorOf } from '../cli-actor.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { approvalLine, formatApproval } from '../format-approval.js';
import { changeKindsOf, sendNotificationsHere } from '../governance-runtime.js';
import { appliedSyncToEnd } from '../applied-sync-to-end.js';
import type { AppliedSync } from '../../sync/apply-sync.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';

interface ApproveFlags extends CommonFlags, RequestFlags {
  planHash?: string;
  yes?: boolean;
  wait?: boolean;
  all?: boolean;
}

/**
 * `seatflow approve [ID]`: without an id, the change requests waiting; with one, shows its plan, and (after a
 * confirmation, --yes or --plan-hash) approves it: the change is planned again against live state and queued only if
 * that plan is the one approved; a stale plan waits again, with the difference printed (exit 4). Never by the person
 * who asked. With --wait an approved batch runs here to the end, and an approved sync's steps due now run here as
 * `sync --apply` runs them. Exit 0 queued (or run), 1 rows or people failed, 2 refused, 4 waiting again.
 */
export function defineApproveCommand(command: Command): void {
  command
    .argument('[id]', 'the change request (the batch or offboarding id it will have)')
    .option('--plan-hash <sha256>', 'the plan you approve, as shown (refused if the plan changed since)')
    .option('--yes', 'approve the plan shown without a prompt')
    .option('--all', 'with no id: list decided requests too')
    .option('--wait', 'run an approved batch here to the end, or a sync\'s steps due now, as sync --apply does (default: queue it for seatflow worker)');
  addCommonOptions(addRequestOptions(command)).action(async (id: string | undefined, flags: ApproveFlags) => {
    process.exitCode = await approve(id, flags);
  });
}

async function approve(id: string | undefined, flags: ApproveFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime({ ...flags, sim: false }, { requireToken: id !== undefined }, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const { governance } = batch;
    if (id === undefined) {
      const waiting = await governance.approvals.list(flags.all === true ? { limit: 100 } : { states: ['awaiting-approval', 'approved'], limit: 100 });
      out.write(waiting.length === 0 ? `No change ${flags.all === true ? 'requests' : 'waits for approval'}.\n` : `${waiting.map(approvalLine).join('\n')}\n`);
      return 0;
    }
    const actor = cliActorOf(runtime, flags.by);
    const record = await governance.gate.get(id);
    if (record === undefined) throw new UsageError(`no change request ${id}`, 'List the waiting ones with: seatflow approve');
    if (record.target !== batch.target) {
      throw new UsageError(`${id} was asked for ${record.target}, not ${batch.target}: it is planned again against its own target`, 'Set SMARTSHEET_API_BASE (and the token) to that target.');
    }
    out.write(formatApproval(record, await governance.approvals.lines(id), { rate: runtime.config.rateLimit }));
    const planHash = flags.planHash ?? (await confirmHash(record.planHash, flags.yes === true));
    let appliedSync: AppliedSync | undefined;
    const kinds = changeKindsOf(runtime, batch, { onSyncApplied: (applied) => (appliedSync = applied) });
    const result = await governance.gate.approve(id, actor, { planHash, reason: flags.reason }, kinds);
    if (result.status === 'replanned') {
      out.write(`\nThe plan went stale since it was approved (live state changed): nothing ran. It waits for approval again as plan ${result.request.planHash}.\nWhat changed:\n${result.difference.map((line) => `  ${line}`).join('\n')}\n`);
      return EXIT_AWAITING_APPROVAL;
    }
    const { queued } = result;
    out.write(`\nApproved by ${actor.name}: re-planned against live state, the plan is the one approved; queued as ${queued.id}${queued.created ? '' : ' (it existed already)'}.\n`);
    if (record.kind === 'sync') {
      if (flags.wait !== true) {
        out.write(`The sync's workflows (and the export accepted) are queued: their steps run on  seatflow worker  (see them: seatflow steps), or here with --wait.\n`);
        return 0;
      }
      if (appliedSync === undefined) throw new Error(`the approval of sync ${id} queued no workflows`);
      // Run here as `sync --apply` runs what it queued: the steps due now, to the end, then how each workflow stands.
      const notifications = sendNotificationsHere(runtime, batch);
      try {
        return await appliedSyncToEnd(runtime, batch, appliedSync, { wait: true, json: false, queuedNote: 'The export is accepted: the next sync compares with it.' });
      } finally {
        await notifications.finish();
      }
    }
    if (flags.wait !== true || record.kind === 'offboarding') {
      out.write(`Process it with: seatflow worker   Watch it with: seatflow status ${queued.id}\n`);
      return 0;
    }
    const { api, budget } = createBudgetedApi(runtime, batch);
    const pool = batch.system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime, batch) });
    const notifications = sendNotificationsHere(runtime, batch);
    try {
      await watchBatch(batch.system.store, queued.id, { label: `Running on ${runtime.targetLabel}` });
    } finally {
      await pool.close(runtime.config.worker.shutdownGraceMs);
      await notifications.finish();
    }
    const finished = await batch.system.store.get(queued.id);
    if (finished === undefined) throw new Error(`batch ${queued.id} disappeared from Redis`);
    out.write(`\n${await formatBatchSummary(finished, batch.system.store)}`);
    return exitCodeOf(finished);
  });
}

/** The hash approved: the one shown, once the person confirmed it (a terminal prompt, or --yes). */
async function confirmHash(shown: string, yes: boolean): Promise<string> {
  if (yes) return shown;
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
    throw new UsageError('approving needs a confirmation: nothing was approved', `Check the plan above, then run again with --yes (or --plan-hash ${shown}).`);
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question('Approve this plan? Type "yes": ');
    if (answer.trim().toLowerCase() !== 'yes') throw new UsageError('not approved: nothing was done');
    return shown;
  } finally {
    prompt.close();
  }
}
