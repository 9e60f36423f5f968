import os from 'node:os';
import { CHECK_STEPS, MIGRATE_STEP } from '../../migrate/domain-lifecycle.js';
import { Option, type Command } from 'commander';
import { describeDuration, describeSkew, type ServiceClock } from '../../core/service-clock.js';
import { UsageError } from '../../core/seatflow-error.js';
import type { RunNowResult, StepView } from '../../workflow/pending-steps.js';
import { LIFECYCLE_WORDS, lifecycleOfWorkflowId } from '../../sync/workflow-ids.js';
import { JOIN_STEP } from '../../sync/joiner-lifecycle.js';
import { MOVE_STEP } from '../../sync/mover-lifecycle.js';
import { STEP_NAMES } from '../../workflow/step-job.js';
import { createBudgetedApi, openBatchRuntime, type BatchRuntime } from '../batch-runtime.js';
import { withCliRuntime, type CliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { confirmOnTerminal } from '../manifest-options.js';
import { openOffboarding, workUntil } from '../offboarding-runtime.js';

/** Every step of every lifecycle a sync or an offboarding queues. */
const EVERY_STEP = [...STEP_NAMES, JOIN_STEP, MOVE_STEP, MIGRATE_STEP, ...CHECK_STEPS];

interface ListFlags extends CommonFlags {
  due?: boolean;
  json?: boolean;
}

interface RunFlags extends CommonFlags {
  user?: string[];
  step?: string;
  due?: boolean;
  all?: boolean;
  yes?: boolean;
  by?: string;
  wait?: boolean;
}

/**
 * `seatflow steps [OFFBOARDING]`: the steps to come of every open offboarding (or one), in due order on the service's
 * clock, and whether a worker has them. `seatflow steps run OFFBOARDING …`: runs some of them now (a leave date
 * brought forward, a hold ended early), after a confirmation, with workers in this process unless --no-wait.
 */
export function defineStepsCommand(steps: Command): void {
  addCommonOptions(
    steps
      .argument('[workflow]', 'only this offboarding, joiners or movers workflow')
      .option('--due', 'only the steps due now')
      .option('--json', 'print JSON'),
  ).action(async (workflowId: string | undefined, flags: ListFlags) => {
    await withCliRuntime({ ...flags, sim: false }, { requireToken: false }, async (runtime) => {
      const offboarding = openOffboarding(runtime, await openBatchRuntime(runtime));
      await learnServiceTime(runtime);
      const views = await offboarding.steps({ ...(workflowId === undefined ? {} : { workflowId }), dueOnly: flags.due === true });
      const workers = await offboarding.context.stepQueue.getWorkersCount();
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify({ serviceClock: clockView(runtime.serviceClock), workers, steps: views }, null, 2)}\n`);
        return;
      }
      process.stdout.write(formatSteps(views, runtime.serviceClock, workers, workflowId));
    });
  });

  addCommonOptions(
    steps
      .command('run')
      .description('run steps of a workflow now instead of when due: bring a leave or start date forward, end a hold early')
      .argument('<workflow>', 'offboarding, joiners, movers or domain migration workflow id')
      .option('--user <email>', 'only this leaver (repeat for several)', (value: string, all: string[] = []) => [...all, value])
      .addOption(new Option('--step <step>', 'only steps of this name').choices(EVERY_STEP))
      .option('--due', 'every step already due on the service clock (catch up)')
      .option('--all', 'every step to come (a rehearsal: the whole workflow now)')
      .option('--yes', 'run without asking')
      .option('--by <name>', 'who runs them, recorded on each leaver (default: your OS user name)')
      .option('--no-wait', 'hand them to a running seatflow worker and return'),
  ).action(async (workflowId: string, flags: RunFlags) => {
    if (flags.sim === true) throw new UsageError('steps run acts on an offboarding in Redis: --sim has none', 'Run it without --sim, against the target the offboarding was submitted for.');
    if (flags.user === undefined && flags.due !== true && flags.all !== true) {
      throw new UsageError('say which steps to run now', 'Name leavers with --user EMAIL, or say --due (every step already due) or --all (every step to come).');
    }
    process.exitCode = await runNow(workflowId, flags);
  });
}

async function runNow(workflowId: string, flags: RunFlags): Promise<number> {
  const out = process.stdout;
  return withCliRuntime(flags, { requireToken: flags.wait === false ? false : true }, async (runtime) => {
    const batch = await openBatchRuntime(runtime);
    const offboarding = openOffboarding(runtime, batch);
    await learnServiceTime(runtime);
    if ((await offboarding.engine.context.records.get(workflowId)) === undefined) throw new UsageError(`no offboarding, joiners or movers workflow ${workflowId}`, 'See the open ones with: seatflow steps');
    const chosen = (await offboarding.steps({ workflowId, dueOnly: flags.due === true })).filter(
      (view) => (flags.user === undefined || flags.user.map((email) => email.toLowerCase()).includes(view.email)) && (flags.step === undefined || flags.step === view.step),
    );
    if (chosen.length === 0) {
      out.write(`No step of offboarding ${workflowId} matches: nothing was run.\n`);
      return 0;
    }
    out.write(`Target: ${runtime.targetLabel}\n${formatSteps(chosen, runtime.serviceClock, await offboarding.context.stepQueue.getWorkersCount(), workflowId)}`);
    const holds = chosen.filter((view) => view.step === 'remove').length;
    await confirmOnTerminal(
      { destructiveCount: chosen.length, organizationUsers: undefined, needsConfirmation: true, reasons: [`run these ${chosen.length} step(s) now${holds > 0 ? `: ${holds} hold(s) end early, and undo is no longer possible once a removal starts` : ''}`] },
      { ...(flags.yes === undefined ? {} : { yes: flags.yes }) },
    );
    const by = flags.by ?? os.userInfo().username;
    const ran = (await offboarding.runNow(workflowId, { by, steps: chosen })) ?? [];
    for (const result of ran) out.write(`${result.email}: ${result.step} ${result.result === 'run' ? 'runs now' : 'already running'}: ${result.message}\n`);
    if (flags.wait === false) {
      out.write(`A running seatflow worker takes them (watch: seatflow status ${workflowId}).\n`);
      return 0;
    }
    return workThrough(runtime, batch, workflowId, ran);
  });
}

/** Runs workers here until the steps just run have ended, then says how each leaver stands. */
async function workThrough(runtime: CliRuntime, batch: BatchRuntime, workflowId: string, ran: readonly RunNowResult[]): Promise<number> {
  const offboarding = openOffboarding(runtime, batch);
  const { api, budget } = createBudgetedApi(runtime, batch);
  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort();
  process.once('SIGINT', onSignal);
  try {
    await workUntil(runtime, batch, offboarding, { api, budget, done: async () => (await offboarding.settled(workflowId)) || (await offboarding.stoppedBatch(workflowId)) !== undefined, signal: interrupt.signal });
  } finally {
    process.off('SIGINT', onSignal);
  }
  let failed = 0;
  for (const result of ran) {
    const leaver = await offboarding.store.getLeaver(workflowId, result.row);
    if (leaver?.phase === 'failed') failed += 1;
    process.stdout.write(`${result.email}: now ${leaver?.phase ?? '?'}${leaver?.reason === undefined ? '' : ` (${leaver.reason})`}\n`);
  }
  if (interrupt.signal.aborted) return 130;
  return failed > 0 ? 1 : 0;
}

/**
 * Due times are the service's: the reference server is asked for its clock; the real service tells its time in the
 * Date header of any answer, so one cheap read (who am I) is made when a token is set.
 */
async function learnServiceTime(runtime: CliRuntime): Promise<void> {
  await runtime.serviceClock.refresh();
  if (runtime.serviceClock.source() === 'local' && runtime.config.api.accessToken !== undefined) {
    await runtime.api.users.getCurrent().catch((error: unknown) => runtime.logger.warn({ err: error }, "could not read the service's time; due times are shown on this machine's clock"));
  }
}

function clockView(clock: ServiceClock) {
  return { now: new Date(clock.now()).toISOString(), source: clock.source(), skewMs: Math.round(clock.skewMs()) };
}

const JOB_WORDS: Record<StepView['job'], string> = {
  running: 'a worker is running it',
  'row-queued': 'running: its row is queued',
  queued: 'due: waiting for a worker',
  waiting: 'waiting for its time',
  'gave-up': 'its job failed with nothing recorded: it runs again once due (seatflow steps run: now)',
  missing: 'no job: queued again once due (seatflow steps run: now)',
};

const SOURCE_WORDS: Record<ReturnType<ServiceClock['source']>, string> = {
  'sim-clock': "the reference server's clock",
  'date-header': "the service's Date header",
  local: "this machine's clock (nothing read from the service yet)",
};

/** The steps for people: the clock they are reckoned on, one line per step, then what to do about due ones. */
export function formatSteps(views: readonly StepView[], clock: ServiceClock, workers: number, workflowId?: string): string {
  const now = clock.now();
  const lines = [`Service clock: ${new Date(now).toISOString()} (${SOURCE_WORDS[clock.source()]}, ${describeSkew(clock.skewMs())})`];
  if (views.length === 0) lines.push(workflowId === undefined ? 'No steps to come in any open offboarding, joiners or movers workflow.' : `No steps to come in ${lifecycleOfWorkflowId(workflowId)} ${workflowId}.`);
  let current: string | undefined;
  for (const view of views) {
    if (view.workflowId !== current) {
      current = view.workflowId;
      lines.push(`${LIFECYCLE_WORDS[view.lifecycle] ?? view.lifecycle} ${view.workflowId}`);
    }
    const when = (view.due ? 'DUE now' : `in ${describeDuration(Date.parse(view.dueAt) - now)}`).padEnd(12);
    const job = view.due && view.job === 'waiting' ? "due on the service clock: a worker's sweep runs it" : JOB_WORDS[view.job];
    lines.push(`  ${when} ${view.step.padEnd(10)} ${view.email.padEnd(34)} due ${view.dueAt}  ${view.phase.padEnd(10)} ${job}`);
  }
  const stuck = views.filter((view) => view.due && (view.job === 'missing' || (workers === 0 && (view.job === 'queued' || view.job === 'waiting')))).length;
  if (stuck > 0) {
    lines.push(`${stuck} step(s) are due and no worker has them${workers === 0 ? ' (no worker is connected)' : ''}: start one with  seatflow worker, or run them here:  seatflow steps run ${workflowId ?? 'WORKFLOW'} --due`);
  }
  return `${lines.join('\n')}\n`;
}
