import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { userKey } from '../ledger/promise.js';
import type { OperatorAction, PerformContext } from './operator-action.js';

const SCHEDULE = 'nightly-seats';

/** Members who have not logged in for 90 days go to a Contributor seat; as the clock moves, more of them qualify. */
const POLICY = {
  version: 1,
  planId: 5420192837465012,
  rules: [{ name: 'no login for 90 days', when: { seat: 'MEMBER', lastLoginOlderThanDays: 90 }, then: { seat: 'CONTRIBUTOR' } }],
  exclude: { admins: true, emails: ['dana.whitfield@acme.example'] },
};

/** A line of the run's plan report (src/reconcile/reconciliation-report.ts). */
interface ReportLine {
  row: string;
  userId: string;
  action: string;
  verdict: string;
  batchId: string;
}

/**
 * The nightly licence reconciliation: the first night IT adds the schedule (`seatflow schedule add nightly-seats …
 * --apply --max-changes 12`), and every night its tick runs — fired with the dashboard's "Run now…" (a schedule's
 * cron follows the machine's clock, which the simulation does not move), run by a worker. The run's plan report (the
 * worker writes it in the seatflow home) is the promise: each seat change once, from the tick on.
 */
export const scheduledReconciliation: OperatorAction = {
  name: 'scheduled-reconciliation',
  perDay: 'once',
  hours: [3, 4],
  background: true,
  draw(context) {
    return { add: !context.earlier.some((event) => event.name === 'scheduled-reconciliation') };
  },
  async perform(params, context) {
    const { world } = context;
    if (params.add === true) {
      const policy = path.join(world.inbox, 'sim-seats.json');
      writeFileSync(policy, JSON.stringify(POLICY, null, 2));
      const added = await world.cli(['schedule', 'add', SCHEDULE, policy, '--cron', '0 3 * * *', '--apply', '--max-changes', '12', '--by', 'it-ops']);
      await context.note(`schedule add ${SCHEDULE}: exit ${added.code}${added.code === 0 ? '' : `; ${(added.stderr || added.stdout).trim().slice(0, 300)}`}`);
      if (added.code !== 0) return;
    }
    const reports = path.join(world.home, 'reconcile');
    const promised = promisedReports.get(world) ?? new Set<string>();
    promisedReports.set(world, promised);
    const at = await context.now();
    const dashboard = await world.dashboard();
    // The run is named by when serve queued it (this machine's clock): between these two readings.
    const askedFrom = Date.now();
    const ran = await dashboard.submitForm(`/schedules/${SCHEDULE}/run`, `/schedules/${SCHEDULE}/run`);
    const askedUntil = Date.now();
    // Done, the form leads back to the schedules with a notice (303); anything else (a lapsed session sent to /login,
    // an error page) queued nothing.
    if (ran.status !== 303 || ran.location?.startsWith('/schedules') !== true) {
      await context.note(`Run now of ${SCHEDULE} on the dashboard: ${ran.status}${ran.location === undefined ? '' : ` to ${ran.location}`}`);
      return;
    }
    // This run's report, by its run's name: not merely a new one (soak seed 6622: a Run now took the report of the
    // day before's, which a busy worker wrote only then, and its own run, written later, was promised by no one).
    const report = await reportOfRun(reports, (runAt) => runAt >= askedFrom - 1000 && runAt <= askedUntil + 1000);
    if (report === undefined) {
      await context.note(`Run now of ${SCHEDULE}: no plan report within 10 minutes`);
      return;
    }
    // This run's report, and a tick's that fired on its own meanwhile (its plan was shown too); another Run now's is
    // left to the action that asked for it.
    const ownOrTick = (name: string) => name === path.basename(report) || isTick(runAtOf(path.join(reports, name)));
    for (const name of reportsIn(reports).filter((each) => !promised.has(each) && ownOrTick(each) && existsSync(path.join(reports, each.replace(/\.json$/, '.csv')))).sort()) {
      promised.add(name);
      await promiseReport(context, path.join(reports, name), at);
    }
  },
};

/** The plan reports of each run's schedule already made promises: each is promised once. */
const promisedReports = new WeakMap<object, Set<string>>();

function reportsIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
}

/** The plan report a worker writes for the run named at an instant `ours` accepts (JSON beside its CSV), once it appears. */
async function reportOfRun(dir: string, ours: (runAt: number) => boolean): Promise<string | undefined> {
  // Long enough for a loaded machine and a fleet paused by a 429 storm: a report never read is a promise not made.
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const found = reportsIn(dir).find((name) => existsSync(path.join(dir, name.replace(/\.json$/, '.csv'))) && ours(runAtOf(path.join(dir, name))));
    if (found !== undefined) return path.join(dir, found);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return undefined;
}

/** When the report's run was asked for: its run id is `<schedule>@<ISO instant>` (NaN when unreadable). */
function runAtOf(report: string): number {
  try {
    const { runId } = JSON.parse(readFileSync(report, 'utf8')) as { runId?: string };
    return Date.parse(runId?.split('@')[1] ?? '');
  } catch {
    return Number.NaN;
  }
}

/** A cron tick's instant (whole minutes), not a Run now's (queued at any millisecond). */
function isTick(runAt: number): boolean {
  return Number.isFinite(runAt) && runAt % 60_000 === 0;
}

async function promiseReport(context: PerformContext, report: string, at: number): Promise<void> {
  const run = JSON.parse(readFileSync(report, 'utf8')) as { runId?: string; batchId?: string; heldBecause?: string[] };
  const lines = parse(readFileSync(report.replace(/\.json$/, '.csv'), 'utf8'), { columns: true, skip_empty_lines: true }) as ReportLine[];
  const keys: string[] = [];
  for (const line of lines) {
    if (line.verdict !== 'change' || line.batchId === '' || line.userId === '') continue;
    const key = `${line.batchId}:row ${line.row}`;
    context.ledger.promise({
      key,
      eventSeq: context.event.seq,
      label: `scheduled run ${run.runId ?? '?'}: ${line.action} user ${line.userId}`,
      changes: [{ operation: line.action === 'upgrade' ? 'upgradeUser' : 'downgradeUser', subject: userKey(Number(line.userId)) }],
      notBefore: at,
      state: 'expected',
      since: at,
      outcome: { batchIds: [line.batchId], row: Number(line.row) },
    });
    keys.push(key);
  }
  context.remember({ ...(run.batchId === undefined ? {} : { batchId: run.batchId }), promiseKeys: keys });
  await context.note(`Run now of ${SCHEDULE} (${run.runId ?? '?'}): ${lines.length} planned, ${keys.length} promised${run.batchId === undefined ? '' : ` in ${run.batchId}`}${run.heldBecause === undefined ? '' : `; held: ${run.heldBecause.join('; ')}`}`);
}
