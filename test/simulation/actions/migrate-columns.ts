import { cliUntilAcknowledged } from './cli-until-acknowledged.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ShownRow } from '../ledger/change-of-row.js';
import { promiseBatchPlan } from '../ledger/promise-batch-plan.js';
import type { OperatorAction } from './operator-action.js';

interface MigrationPlanJson {
  sheets?: { sheetId: number; rows: { row: number; action: string; verdict: string; call?: Record<string, unknown>; columnId?: number }[] }[];
}

/**
 * IT brings the sheet's columns to a standard with the command line (`seatflow migrate columns --apply --json
 * --no-wait`): a new column, and sometimes the column an earlier migration added renamed (`formerTitles`). The plan is
 * made from live state when the command runs; every row it shows as a change is promised, reported by the migration's
 * batch, which the workers run.
 */
export const migrateColumns: OperatorAction = {
  name: 'migrate-columns',
  background: true,
  perDay: 0.5,
  hours: [10, 17],
  draw(context) {
    const earlier = context.earlier.filter((event) => event.kind === 'action' && event.name === 'migrate-columns');
    const rename = earlier.length > 0 && context.draw.chance(0.5) ? String(context.draw.pick(earlier).params.title) : undefined;
    return { title: context.fresh('Review'), ...(rename === undefined ? {} : { rename }), name: context.fresh('columns') };
  },
  async perform(params, context) {
    const { world } = context;
    const name = String(params.name);
    const columns: Record<string, unknown>[] = [{ title: String(params.title), type: 'TEXT_NUMBER' }];
    if (typeof params.rename === 'string') columns.push({ title: `${params.rename} (renamed)`, type: 'TEXT_NUMBER', formerTitles: [params.rename] });
    const specFile = path.join(world.inbox, `${name}.json`);
    const sheetsFile = path.join(world.inbox, `${name}-sheets.txt`);
    writeFileSync(specFile, JSON.stringify({ version: 1, columns }));
    writeFileSync(sheetsFile, `${context.population.sheet.id}\n`);
    const at = await context.now();
    const { result, refusedFirst, refused } = await cliUntilAcknowledged(world, ['migrate', 'columns', '--sheets', sheetsFile, '--spec', specFile, '--apply', '--json', '--no-wait', '--yes', '--by', 'it-ops', '--reason', 'simulation']);
    const batchId = /^Batch ([0-9a-f]+) (queued|was queued before)/m.exec(result.stderr);
    let plan: MigrationPlanJson | undefined;
    try {
      plan = JSON.parse(result.stdout) as MigrationPlanJson;
    } catch {
      plan = undefined;
    }
    // Refused as not acknowledged, then nothing left to change on a later try: the kept batch the refusal named ran
    // (or may still run) the plan it showed.
    const unacknowledged = refused === undefined ? null : /^Migration ([0-9a-f]+) was not acknowledged/m.exec(refused.stderr);
    if ((plan === undefined || batchId === null) && unacknowledged !== null) {
      let shownFirst: MigrationPlanJson | undefined;
      try {
        shownFirst = JSON.parse(refused!.stdout) as MigrationPlanJson;
      } catch {
        shownFirst = undefined;
      }
      if (shownFirst !== undefined) {
        const rows = shownRowsOf(shownFirst);
        const { keys } = promiseBatchPlan(context.ledger, { batchId: unacknowledged[1]!, rows, at, eventSeq: context.event.seq, state: 'optional', label: `column migration ${name} (${unacknowledged[1]!})` });
        await context.note(`migrate columns ${name}: batch ${unacknowledged[1]!} not acknowledged, then nothing to change: it may run as its refusal showed`);
        context.remember({ batchId: unacknowledged[1]!, promiseKeys: keys });
        return;
      }
    }
    if (plan === undefined || batchId === null) {
      await context.note(`migrate columns ${name}: exit ${result.code}, nothing queued; ${`${result.stderr}`.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`);
      return;
    }
    if (batchId[2] !== 'queued' && !refusedFirst) {
      await context.note(`migrate columns ${name}: batch ${batchId[1]} existed already; nothing promised anew`);
      return;
    }
    const rows = shownRowsOf(plan);
    const { keys, unnamed } = promiseBatchPlan(context.ledger, { batchId: batchId[1]!, rows, at, eventSeq: context.event.seq, state: 'expected', label: `column migration ${name} (${batchId[1]})` });
    await context.note(`migrate columns ${name}: batch ${batchId[1]} queued; ${rows.map((row) => `row ${row.row} ${row.actionName} ${row.verdict}`).join(', ')}${unnamed.length === 0 ? '' : `; rows the oracle cannot name: ${unnamed.join(', ')}`}`);
    context.remember({ batchId: batchId[1]!, promiseKeys: keys });
  },
};

/** The rows of a column migration's plan JSON as the ledger takes them. */
function shownRowsOf(plan: MigrationPlanJson): ShownRow[] {
  return (plan.sheets ?? []).flatMap((sheet) =>
    sheet.rows.map((row) => ({ row: row.row, actionName: row.action, verdict: row.verdict, ...(row.call === undefined ? {} : { action: row.call }), target: { sheetId: sheet.sheetId, ...(row.columnId === undefined ? {} : { columnId: row.columnId }) } })),
  );
}
