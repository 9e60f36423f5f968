import path from 'node:path';
import { Option, type Command } from 'commander';
import { emailSchema } from '../../manifest/action.js';
import { UsageError } from '../../core/seatflow-error.js';
import { reportFormatOf } from '../../queue/report-writer.js';
import { formatOffboardingPlan } from '../../workflow/format-offboarding-plan.js';
import { checkHold, formatHold, HOLD_UNITS, holdOf } from '../../workflow/hold-duration.js';
import { writeOffboardingReport } from '../../workflow/offboarding-report.js';
import { formatOffboardingStatus } from '../../workflow/offboarding-status.js';
import { leaversColumnChoices } from '../../workflow/leavers-column-choices.js';
import { readLeavers, type LeaversColumnChoices } from '../../workflow/read-leavers.js';
import { workflowIdOf } from '../../workflow/submit-offboarding.js';
import { checkTimeZone } from '../../workflow/zoned-time.js';
import { createBudgetedApi, defaultReportFile, openBatchRuntime } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { collect, confirmOnTerminal } from '../manifest-options.js';
import { openOffboarding, workUntil } from '../offboarding-runtime.js';
import { awaitingApprovalText, gateOffboarding } from '../governance-runtime.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';
import { addVolatileRedisOption, refuseVolatileRedis, type VolatileRedisFlags } from '../volatile-redis.js';
import { plural } from '../../core/plural.js';

interface OffboardFlags extends CommonFlags, VolatileRedisFlags, RequestFlags {
  hold?: string;
  /** False with --no-undo-window. */
  undoWindow?: boolean;
  transferTo?: string;
  removeFromSharing?: boolean;
  tz?: string;
  dryRun?: boolean;
  yes?: boolean;
  wait?: boolean;
  report?: string;
  emailColumn?: string;
  leaveDateColumn?: string;
  leaveAtColumn?: string;
  transferColumn?: string;
  ignoreColumn?: string[];
}

/**
 * `seatflow offboard LEAVERS`: plan every leaver, then (after the guardrails) queue the workflow and run what is due
 * now (deactivations for today and past dates) with in-process workers; later steps wait in Redis for `seatflow worker`.
 * Exit 0 when no leaver failed, 1 when some did, 2 when the file or the options were refused.
 */
export function defineOffboardCommand(command: Command): void {
  command
    .argument('<leavers>', 'CSV, JSON or JSON Lines: email, optionally a leave date and a transfer target (manager)')
    .option('--hold <duration>', `time between deactivation and removal, until when undo can act: ${HOLD_UNITS} (default: config offboarding.defaultHoldDays; at least offboarding.minHoldHours)`)
    .option('--no-undo-window', 'accept a hold shorter than offboarding.minHoldHours, down to --hold 0 (removal right after the deactivation)')
    .option('--transfer-to <email>', 'who takes over sheets and groups when a row names nobody (and the fallback when its target cannot)')
    .option('--remove-from-sharing', 'also remove the leavers from sharing on every sheet and workspace')
    .option('--tz <zone>', 'time zone of leave dates written without an offset, e.g. Europe/Berlin')
    .option('--leave-date-column <name>', "the column holding each leaver's last day (a date alone ends access at the end of that day)")
    .option('--leave-at-column <name>', 'the column holding the moment access ends (a date alone means the start of that day)')
    .option('--transfer-column <name>', "the column naming who takes over each leaver's sheets and groups")
    .option('--email-column <name>', "the column holding each leaver's e-mail address")
    .option('--ignore-column <name>', 'a column that means nothing here (repeat for several): never read, never refused', collect, [])
    .option('--dry-run', 'print the plan and stop: nothing is queued')
    .option('--yes', 'confirm above the guardrails without a prompt')
    .option('--no-wait', 'queue and return without running what is due now (a running seatflow worker takes it)')
    .option('--report <file>', 'report file, .csv or .jsonl (default: <dataDir>/reports/<offboarding>.csv)')
    .addOption(new Option('--concurrency <n>', 'rows processed at once by this process').hideHelp());
  addCommonOptions(addRequestOptions(addVolatileRedisOption(command))).action(async (leavers: string, flags: OffboardFlags) => {
    process.exitCode = await offboard(leavers, flags);
  });
}

async function offboard(file: string, flags: OffboardFlags): Promise<number> {
  if (flags.report !== undefined) reportFormatOf(flags.report);
  const timeZone = flags.tz === undefined ? undefined : checkTimeZone(flags.tz);
  const transferTo = flags.transferTo === undefined ? undefined : parseEmail(flags.transferTo);
  const out = process.stdout;
  return withCliRuntime(flags, {}, async (runtime) => {
    const holdMs = holdOf(flags.hold, runtime.config.offboarding);
    const noUndoWindow = flags.undoWindow === false;
    // Refusals that need no Redis come first.
    checkHold(holdMs, runtime.config.offboarding, { noUndoWindow });
    const columns = leaversColumnsOf(flags);
    const leavers = await readLeavers({
      path: file,
      maxRows: runtime.config.guardrails.maxRows,
      lastDayEndsAt: runtime.config.offboarding.lastDayEndsAt,
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(columns === undefined ? {} : { columns }),
    });
    const batchRuntime = await openBatchRuntime(runtime);
    const offboarding = openOffboarding(runtime, batchRuntime);
    out.write(`Target: ${runtime.targetLabel}\n`);
    if (leavers.ignored.length > 0) out.write(`note: columns ignored: ${leavers.ignored.join(', ')}\n`);
    const options = {
      holdMs,
      removeFromSharing: flags.removeFromSharing === true,
      ...(transferTo === undefined ? {} : { transferTo }),
      ...(timeZone === undefined ? {} : { timeZone }),
      ...(columns === undefined ? {} : { columns }),
      ...(noUndoWindow ? { noUndoWindow } : {}),
    };
    // The same file with the same options is the same offboarding: found before spending a pre-flight on it.
    const known = await offboarding.store.get(workflowIdOf({ source: leavers, options }, batchRuntime.target));
    let workflow;
    if (known !== undefined && known.state !== 'submitting') {
      workflow = known;
      out.write(`Offboarding ${workflow.id} was queued before (same file and options): nothing queued again.\n`);
    } else {
      const preflightApi = createBudgetedApi(runtime, batchRuntime, { retryReads: true }).api;
      const plan = await offboarding.plan(leavers, { api: preflightApi, config: runtime.config, options });
      out.write(formatOffboardingPlan(plan, runtime.config.rateLimit));
      if (flags.dryRun === true) {
        out.write('Dry run: nothing was queued.\n');
        return 0;
      }
      await refuseVolatileRedis(batchRuntime.redis, flags, 'the holds and removals of this offboarding');
      await confirmOnTerminal(plan.guardrails, flags);
      const gated = await gateOffboarding(runtime, batchRuntime, offboarding, { file, plan, flags });
      if (gated.status === 'awaiting-approval') {
        out.write(awaitingApprovalText(gated.request, gated.created, runtime.sim !== undefined));
        return EXIT_AWAITING_APPROVAL;
      }
      workflow = gated.value.workflow;
      out.write(`Offboarding ${workflow.id} queued (hold ${formatHold(workflow.holdMs)}).\n`);
    }

    const interrupt = new AbortController();
    const onSignal = (): void => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      if (flags.wait !== false) {
        const { api, budget } = createBudgetedApi(runtime, batchRuntime);
        await workUntil(runtime, batchRuntime, offboarding, { api, budget, done: async () => (await offboarding.settled(workflow.id)) || (await offboarding.stoppedBatch(workflow.id)) !== undefined, signal: interrupt.signal });
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const stopped = await offboarding.stoppedBatch(workflow.id);
    if (stopped !== undefined) out.write(`Stopped: the access token was refused; fix it, then run: seatflow retry ${stopped}\n`);
    const status = await offboarding.status(workflow.id);
    if (status === undefined) throw new Error(`offboarding ${workflow.id} disappeared from Redis`);
    out.write(`\n${formatOffboardingStatus(status)}`);
    const open = status.leavers.filter((leaver) => leaver.next !== undefined);
    if (open.length > 0) {
      out.write(
        runtime.sim
          ? 'SIMULATION: the embedded reference server ends with this process, so the steps still to come will not run.\n'
          : `Steps to come run on a worker: keep  seatflow worker  running (watch: seatflow status ${workflow.id}; undo: seatflow undo ${workflow.id} [--user EMAIL]).\n`,
      );
    }
    const reportFile = flags.report ?? path.join(path.dirname(defaultReportFile(runtime, workflow.id, false)), `${workflow.id}${runtime.sim ? '-simulation' : ''}.csv`);
    const rows = (await offboarding.reportRows(workflow.id)) ?? [];
    await writeOffboardingReport(rows, reportFile);
    out.write(`Report (${plural(rows.length, 'leaver')}${runtime.sim ? ', SIMULATION' : ''}; a snapshot as of ${String(rows[0]?.reportedAt ?? 'now')}): ${path.resolve(reportFile)}\n`);
    if (open.length > 0 && !runtime.sim) {
      out.write(`  The steps to come are not in it: the live report is  seatflow report ${workflow.id} [--out FILE]  (or GET /v1/offboardings/${workflow.id}/report).\n`);
    }
    if (interrupt.signal.aborted) return 130;
    return stopped !== undefined || status.leavers.some((leaver) => leaver.phase === 'failed') ? 1 : 0;
  });
}

/** The column options as the leavers reader takes them; undefined when none was given. */
function leaversColumnsOf(flags: OffboardFlags): LeaversColumnChoices | undefined {
  return leaversColumnChoices({ email: flags.emailColumn, leaveDate: flags.leaveDateColumn, leaveAt: flags.leaveAtColumn, transferTo: flags.transferColumn }, flags.ignoreColumn ?? []);
}

function parseEmail(text: string): string {
  const parsed = emailSchema.safeParse(text);
  if (!parsed.success) throw new UsageError(`--transfer-to "${text}" is not an e-mail address`);
  return parsed.data;
}
