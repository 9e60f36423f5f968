import { cliUntilAcknowledged } from './cli-until-acknowledged.js';
import type { ShownRow } from '../ledger/change-of-row.js';
import { promiseBatchPlan } from '../ledger/promise-batch-plan.js';
import type { OperatorAction } from './operator-action.js';

/**
 * IT reverts an earlier manifest batch with the command line (`seatflow revert BATCH --yes --json`): the revert's
 * plan, row by row, is its promise (each change once, from now), queued for the workers or waiting for approval.
 */
export const revertBatch: OperatorAction = {
  name: 'revert',
  background: true,
  perDay: 0.5,
  hours: [10, 18],
  draw(context) {
    const batches = context.earlier.filter((event) => event.kind === 'action' && event.name === 'manifest-batch');
    return batches.length === 0 ? undefined : { ref: context.draw.pick(batches.slice(-5)).seq };
  },
  async perform(params, context) {
    const batchId = (await context.handle(Number(params.ref)))?.batchId;
    if (batchId === undefined) {
      await context.note(`revert: event #${String(params.ref)} left no batch`);
      return;
    }
    const at = await context.now();
    const { result, refusedFirst, refused } = await cliUntilAcknowledged(context.world, ['revert', batchId, '--yes', '--json', '--by', 'it-ops', '--reason', 'simulation']);
    const shown = shownOf(result.stdout);
    // A try that exited 3 after showing its plan ("not-acknowledged"): that batch may still run as shown.
    const maybeKept = refused === undefined ? undefined : shownOf(refused.stdout);
    const promised = (shown?.status === 'queued' || shown?.status === 'awaiting-approval') && shown.batchId !== undefined && (shown.created !== false || refusedFirst);
    if (maybeKept?.status === 'not-acknowledged' && maybeKept.batchId !== undefined && maybeKept.rows !== undefined && !(promised && shown?.batchId === maybeKept.batchId)) {
      const { keys } = promiseBatchPlan(context.ledger, { batchId: maybeKept.batchId, rows: maybeKept.rows, at, eventSeq: context.event.seq, state: 'optional', label: `revert of ${batchId} (${maybeKept.batchId}), not acknowledged` });
      await context.note(`revert ${batchId}: ${maybeKept.batchId} not acknowledged; it may run as shown`);
      if (!promised) context.remember({ batchId: maybeKept.batchId, promiseKeys: keys });
    }
    if (shown?.rows === undefined || shown.status === undefined) {
      await context.note(`revert ${batchId}: exit ${result.code}; ${(result.stderr || result.stdout).trim().split('\n').slice(0, 3).join(' | ').slice(0, 300)}`);
      return;
    }
    if (promised && shown.batchId !== undefined) {
      const waiting = shown.status === 'awaiting-approval';
      const { keys } = promiseBatchPlan(context.ledger, { batchId: shown.batchId, rows: shown.rows, at, eventSeq: context.event.seq, state: waiting ? 'awaiting-approval' : 'expected', label: `revert of ${batchId} (${shown.batchId})` });
      context.remember({ batchId: shown.batchId, promiseKeys: keys, ...(waiting && shown.approval !== undefined ? { approvalId: shown.approval.id, planHash: shown.approval.planHash } : {}) });
    }
    const changes = shown.rows.filter((row) => row.verdict === 'change').length;
    await context.note(`revert ${batchId}: ${shown.status}${shown.batchId === undefined ? '' : ` as ${shown.batchId}`}; ${changes} of ${shown.rows.length} rows change`);
  },
};

type ShownRevert = { status?: string; batchId?: string; created?: boolean; rows?: ShownRow[]; approval?: { id: string; planHash: string } };

function shownOf(stdout: string): ShownRevert | undefined {
  try {
    return JSON.parse(stdout) as ShownRevert;
  } catch {
    return undefined;
  }
}
