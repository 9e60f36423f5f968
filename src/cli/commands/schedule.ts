import path from 'node:path';
import type { Command } from 'commander';
import { auditScheduleRun } from '../../governance/audit/audit-batch-control.js';
import { UsageError } from '../../core/seatflow-error.js';
import { formatReconciliation } from '../../reconcile/format-reconciliation.js';
import { loadPolicy } from '../../reconcile/load-policy.js';
import type { Config } from '../../core/config.js';
import { planReconciliation } from '../../reconcile/plan-reconciliation.js';
import { checkRunLimits, SCHEDULE_LIMITS } from '../../reconcile/run-limits.js';
import type { ScheduleData, ScheduleView } from '../../reconcile/schedule-book.js';
import { describeScheduleLimits } from '../../reconcile/schedule-limits.js';
import { lastRunOf } from '../../reconcile/schedule-worker.js';
import { createBudgetedApi, openBatchRuntime, withBatchRuntime, type BatchRuntime } from '../batch-runtime.js';
import { OUTCOMES, type OutcomeCounts } from '../../queue/row-outcome.js';
import { withCliRuntime, type CliRuntime } from '../cli-runtime.js';
import { wholeNumber } from '../whole-number.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { openScheduleBook, scheduledRunOf, scheduledSyncOf } from '../reconcile-runtime.js';
import { loadLifecyclePolicy } from '../../sync/load-lifecycle-policy.js';
import { printed } from '../../core/printable.js';
import { addVolatileRedisOption, refuseVolatileRedis, type VolatileRedisFlags } from '../volatile-redis.js';
import { plural } from '../../core/plural.js';
import { cliActorNameOf, cliActorOf } from '../cli-actor.js';
import { requireRole } from '../../governance/operators/actor.js';
import { addRequestOptions, EXIT_AWAITING_APPROVAL, type RequestFlags } from '../request-options.js';

interface AddFlags extends CommonFlags, VolatileRedisFlags, RequestFlags {
  cron: string;
  tz?: string;
  apply?: boolean;
  maxChanges?: string;
  maxShare?: string;
  /** The lifecycle policy of a sync schedule. */
  policy?: string;
}

/** `POLICY` (a licence reconciliation) or `sync HR_EXPORT` with --policy (a sync): what a schedule runs. */
async function whatOf(what: readonly string[], flags: AddFlags): Promise<Pick<ScheduleData, 'kind' | 'exportPath' | 'policyPath'>> {
  if (what[0] === 'sync') {
    if (what.length !== 2 || flags.policy === undefined) throw new UsageError('a sync schedule names one HR export and its lifecycle policy', 'Write: seatflow schedule add NAME sync HR_EXPORT --policy lifecycle.json --cron "0 2 * * *"');
    await loadLifecyclePolicy(flags.policy); // refused now, not at the first tick
    return { kind: 'sync', exportPath: path.resolve(what[1] ?? ''), policyPath: path.resolve(flags.policy) };
  }
  if (what.length !== 1 || flags.policy !== undefined) throw new UsageError('a reconciliation schedule names one licence policy', 'Write: seatflow schedule add NAME POLICY --cron "0 6 * * 1" (or NAME sync HR_EXPORT --policy P for a sync).');
  await loadPolicy(what[0] ?? ''); // refused now, not at the first tick
  return { policyPath: path.resolve(what[0] ?? '') };
}

/**
 * `seatflow schedule add|list|remove|run`: reconciliation on a schedule. Schedules live in Redis as BullMQ Job
 * Schedulers of the target (SMARTSHEET_API_BASE); `seatflow worker` fires them, once per tick however many run.
 */
export function defineScheduleCommand(schedule: Command): void {
  const add = schedule
    .command('add')
    .description('add or replace a schedule: the policy (or the sync) runs at every tick of the cron pattern')
    .argument('<name>', 'schedule name (letters, digits, . _ -)')
    .argument('<what...>', 'POLICY (a licence policy, JSON), or: sync HR_EXPORT (with --policy); files read again at every run')
    .requiredOption('--cron <pattern>', 'cron pattern, e.g. "0 6 * * 1" (Mondays 06:00)')
    .option('--policy <file>', 'the lifecycle policy of a sync schedule')
    .option('--tz <zone>', 'IANA time zone of the pattern (default UTC)')
    .option('--apply', 'submit each run (a batch, or the sync\'s workflows); without it a run only writes its plan report')
    .option('--max-changes <n>', 'changes one run may make without confirmation (above: the run is held)')
    .option('--max-share <fraction>', "share of the users (0-1) one run may change without confirmation (above: held)");
  addCommonOptions(addRequestOptions(addVolatileRedisOption(add))).action(async (name: string, what: string[], flags: AddFlags) => {
    const limits = scheduleLimitsOf(flags);
    await withBatchRuntime(flags, async (runtime, batch) => {
      const actor = cliActorOf(runtime, flags.by);
      requireRole(actor, 'operator', 'add schedules');
      const runs = await whatOf(what, flags); // refused now, not at the first tick
      await refuseVolatileRedis(batch.redis, flags, 'this schedule');
      const book = openScheduleBook(runtime, batch);
      const added = await book.add({ name, ...runs, apply: flags.apply === true, cron: flags.cron, ...(flags.tz === undefined ? {} : { tz: flags.tz }), ...(limits === undefined ? {} : { limits }) });
      await batch.governance.audit.append({ event: 'schedule.added', actor: actor.name, subject: added.name, reason: flags.reason, data: { ...(added.kind === 'sync' ? { kind: 'sync', exportPath: added.exportPath ?? null } : {}), policyPath: added.policyPath, cron: added.cron ?? null, tz: added.tz ?? 'UTC', apply: added.apply, target: batch.target } });
      const out = process.stdout;
      out.write(`Schedule ${added.name}: ${describe(added)}; next run ${added.next ?? 'none'}\n`);
      if (added.apply) {
        out.write(`Nobody can confirm a scheduled run: ${describeScheduleLimits(added.limits, runtime.config.guardrails)}${added.kind === 'sync' ? '; an export missing the policy\'s safety.maxMissingShare of the employees is held too' : ''}.\n`);
        if (added.kind !== 'sync') out.write(await preview(runtime, batch, added));
      }
      out.write('Runs are fired by `seatflow worker` (keep at least one running against this target).\n');
    });
  });

  addCommonOptions(schedule.command('list').description('list schedules with their next and last run').option('--json', 'print as JSON')).action(
    async (flags: CommonFlags & { json?: boolean }) => {
      await withBatchRuntime(flags, async (runtime, batch) => {
        const schedules = await openScheduleBook(runtime, batch).list();
        if (flags.json === true) process.stdout.write(`${JSON.stringify(schedules.map((view) => ({ ...view, ...(view.apply ? { holds: describeScheduleLimits(view.limits, runtime.config.guardrails) } : {}) })), null, 2)}\n`);
        else process.stdout.write(schedules.length === 0 ? 'No schedules. Add one with: seatflow schedule add NAME POLICY --cron "0 6 * * 1"\n' : schedules.map((view) => formatSchedule(view, runtime.config.guardrails)).join('\n'));
      });
    },
  );

  addCommonOptions(addRequestOptions(schedule.command('remove').description('remove a schedule (its batches and reports stay)').argument('<name>'))).action(
    async (name: string, flags: CommonFlags & RequestFlags) => {
      await withBatchRuntime(flags, async (runtime, batch) => {
        const actor = cliActorOf(runtime, flags.by);
        requireRole(actor, 'operator', 'remove schedules');
        if (!(await openScheduleBook(runtime, batch).remove(name))) throw new UsageError(`no schedule "${name}"`, 'See them with: seatflow schedule list');
        await batch.governance.audit.append({ event: 'schedule.removed', actor: actor.name, subject: name, reason: flags.reason, data: { target: batch.target } });
        process.stdout.write(`Schedule ${name} removed.\n`);
      });
    },
  );

  addCommonOptions(schedule.command('run').description("run a schedule's policy now, once (as a tick at this time)").argument('<name>')).action(
    async (name: string, flags: CommonFlags) => {
      process.exitCode = await withCliRuntime({ ...flags, sim: false }, {}, async (runtime) => {
        const batch = await openBatchRuntime(runtime);
        const book = openScheduleBook(runtime, batch);
        const found = await book.get(name);
        if (found === undefined) throw new UsageError(`no schedule "${name}"`, 'See them with: seatflow schedule list');
        const tick = new Date();
        // A run out of the schedule's cron is a change someone asked for: in the trail with who.
        await auditScheduleRun(batch.governance.audit, name, { by: cliActorNameOf(runtime), via: 'cli' }, { jobId: `cli-${tick.toISOString()}` });
        if (found.kind === 'sync') {
          const last = await scheduledSyncOf(runtime, batch)(found, tick);
          await book.recordRun(name, last);
          process.stdout.write(`Target: ${runtime.targetLabel}\n${formatSchedule({ ...found, lastRun: last }, runtime.config.guardrails)}`);
          if (last.awaitingApproval !== undefined) {
            process.stdout.write(`The run waits for approval as ${last.awaitingApproval}: seatflow approve ${last.awaitingApproval}\n`);
            return EXIT_AWAITING_APPROVAL;
          }
          return last.heldBecause === undefined ? 0 : 2;
        }
        const run = await scheduledRunOf(runtime, batch)({ name: found.name, policyPath: found.policyPath, apply: found.apply, ...(found.limits === undefined ? {} : { limits: found.limits }) }, tick);
        await book.recordRun(name, lastRunOf(run, tick, new Date()));
        const out = process.stdout;
        out.write(`Target: ${runtime.targetLabel}\n${formatReconciliation(run.plan, runtime.config.rateLimit)}Plan report: ${path.resolve(run.report.csv)} (run ${run.disposition.runId})\n`);
        if (run.disposition.heldBecause !== undefined) {
          out.write(printed`Nothing was changed: ${run.disposition.heldBecause.join('; ')}\n`);
          return 2;
        }
        if (run.disposition.awaitingApproval !== undefined) {
          out.write(`The run waits for approval as ${run.disposition.awaitingApproval}: seatflow approve ${run.disposition.awaitingApproval}\n`);
          return EXIT_AWAITING_APPROVAL;
        }
        if (run.disposition.nothingToChange === true) out.write('No seat needs to change: no batch was made.\n');
        else if (run.submitted !== undefined) {
          const { batch: record, created, jobsAdded } = run.submitted;
          out.write(created ? `Batch ${record.id}: ${plural(jobsAdded, 'row')} queued. Process it with: seatflow worker\n` : `Batch ${record.id} of this run exists already (${record.state}).\n`);
        } else if (!found.apply) out.write('Plan only (the schedule has no --apply): nothing was changed.\n');
        return 0;
      });
    },
  );
}

function describe(view: Pick<ScheduleView, 'cron' | 'tz' | 'apply' | 'policyPath' | 'kind' | 'exportPath'>): string {
  const runs = view.kind === 'sync' ? `sync of ${view.exportPath ?? '?'} with policy ${view.policyPath}` : `policy ${view.policyPath}`;
  return `"${view.cron ?? '?'}" ${view.tz ?? 'UTC'}, ${view.apply ? 'applies' : 'plan only'}, ${runs}`;
}

/** One schedule for people: what, when next, what holds its runs, and what its last run did. */
export function formatSchedule(view: ScheduleView, guardrails: Config['guardrails']): string {
  const lines = [`${view.name}: ${describe(view)}`, `  next run: ${view.next ?? 'none'}`];
  if (view.apply) lines.push(`  held when: ${describeScheduleLimits(view.limits, guardrails)}`);
  const last = view.lastRun;
  if (last === undefined) lines.push('  last run: never');
  else {
    const what =
      last.error !== undefined ? `failed: ${last.error}`
      : last.heldBecause !== undefined ? `HELD, changed nothing: ${last.heldBecause.join('; ')}`
      : last.awaitingApproval !== undefined ? `waits for approval as ${last.awaitingApproval}, changed nothing`
      : last.nothingToChange === true ? 'nothing to change: no batch'
      : last.batchId !== undefined ? `batch ${last.batchId}${view.lastBatch === undefined ? '' : ` (${view.lastBatch.state}; ${outcomeCounts(view.lastBatch.counts, view.lastBatch.total)})`}`
      : last.workflows !== undefined ? `${plural(last.plan.change ?? 0, 'change')} queued: ${last.workflows.join(', ')}`
      : `${plural(last.plan.change ?? 0, 'change')} planned${last.applied ? '' : ', plan only'}`;
    lines.push(`  last run: ${last.tick} (${last.runId}): ${what}`);
    if (last.report !== '') lines.push(`  report: ${last.report}`);
  }
  return `${lines.join('\n')}\n`;
}

/** --max-changes and --max-share, checked; undefined when neither is given. */
function scheduleLimitsOf(flags: AddFlags): ScheduleData['limits'] {
  const maxChanges = flags.maxChanges === undefined ? undefined : wholeNumber('--max-changes', flags.maxChanges, 0);
  const maxShare = flags.maxShare === undefined ? undefined : Number(flags.maxShare);
  if (maxShare !== undefined && !(maxShare >= 0 && maxShare <= 1)) throw new UsageError(`--max-share "${flags.maxShare}" is not a share`, 'Write a fraction between 0 and 1, e.g. --max-share 0.05 for 5% of the plan\'s users.');
  if (flags.apply !== true && (maxChanges !== undefined || maxShare !== undefined)) {
    throw new UsageError('--max-changes and --max-share limit what a run applies: they need --apply', 'Add --apply, or leave the limits out for a schedule that only plans.');
  }
  return maxChanges === undefined && maxShare === undefined ? undefined : { ...(maxChanges === undefined ? {} : { maxChanges }), ...(maxShare === undefined ? {} : { maxShare }) };
}

/**
 * What the schedule's run would do now, when the service can be asked (a token is set): within its limits, or held
 * and why. Said at `schedule add`, so that a schedule that will never change anything is known at once.
 */
async function preview(runtime: CliRuntime, batch: BatchRuntime, view: ScheduleView): Promise<string> {
  if (runtime.config.api.accessToken === undefined) return 'No access token set: today\'s plan was not checked against these limits.\n';
  const { api } = createBudgetedApi(runtime, batch, { retryReads: true });
  const plan = await planReconciliation({ policyPath: view.policyPath, api, guardrails: runtime.config.guardrails, clock: runtime.serviceClock });
  const schedule = view.limits === undefined ? [] : checkRunLimits(plan.limits.changes, plan.usersRead, view.limits, SCHEDULE_LIMITS).reasons;
  const held = [...plan.limits.reasons, ...schedule, ...(view.limits === undefined ? plan.guardrails.reasons : [])];
  const now = `A run now would plan ${plan.limits.changes} seat change(s)`;
  return held.length === 0 ? `${now}: within the limits, it would be applied.\n` : `${now} and be HELD (nothing changed): ${held.join('; ')}.\n`;
}

function outcomeCounts(counts: OutcomeCounts, total: number): string {
  const parts = OUTCOMES.filter((outcome) => counts[outcome] > 0).map((outcome) => `${counts[outcome]} ${outcome}`);
  return `${plural(total, 'row')}: ${parts.join(', ') || 'none yet'}`;
}
