import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { userKey } from '../ledger/promise.js';
import type { OperatorAction } from './operator-action.js';

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
 * --apply --max-changes 12`), and every night its tick runs (`seatflow schedule run nightly-seats`: a schedule's cron
 * fires on the machine's clock, which the simulation does not move, so the tick is fired as its cron would at the
 * service's 03:00). The run's plan report is the promise: each seat change once, from the tick on.
 */
export const scheduledReconciliation: OperatorAction = {
  name: 'scheduled-reconciliation',
  background: true,
  perDay: 'once',
  hours: [3, 4],
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
    const at = await context.now();
    const ran = await world.cli(['schedule', 'run', SCHEDULE]);
    const report = /Plan report: (\S+\.csv) \(run ([^)]+)\)/.exec(ran.stdout);
    if (report === null) {
      await context.note(`schedule run ${SCHEDULE}: exit ${ran.code}; ${(ran.stderr || ran.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`);
      return;
    }
    const lines = parse(readFileSync(report[1]!, 'utf8'), { columns: true, skip_empty_lines: true }) as ReportLine[];
    const keys: string[] = [];
    let batchId: string | undefined;
    for (const line of lines) {
      if (line.verdict !== 'change' || line.batchId === '' || line.userId === '') continue;
      batchId = line.batchId;
      const key = `${line.batchId}:row ${line.row}`;
      context.ledger.promise({
        key,
        eventSeq: context.event.seq,
        label: `scheduled run ${report[2]}: ${line.action} user ${line.userId}`,
        changes: [{ operation: line.action === 'upgrade' ? 'upgradeUser' : 'downgradeUser', subject: userKey(Number(line.userId)) }],
        notBefore: at,
        state: 'expected',
        since: at,
        outcome: { batchIds: [line.batchId], row: Number(line.row) },
      });
      keys.push(key);
    }
    const held = /Nothing was changed: (.*)/.exec(ran.stdout)?.[1];
    context.remember({ ...(batchId === undefined ? {} : { batchId }), promiseKeys: keys });
    await context.note(`schedule run ${SCHEDULE} (${report[2]}): ${lines.length} planned, ${keys.length} promised${batchId === undefined ? '' : ` in ${batchId}`}${held === undefined ? '' : `; held: ${held}`}`);
  },
};
