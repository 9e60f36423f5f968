import type { ShownRow } from '../ledger/change-of-row.js';
import { promiseBatchPlan } from '../ledger/promise-batch-plan.js';
import { callWithRetries, describeAnswer, unacknowledgedPlan } from './call-with-retries.js';
import type { DrawContext, OperatorAction } from './operator-action.js';

/** The kinds of manifest row an operator writes, with how often (weights), user-side and sheet-side. */
const ROW_KINDS = [
  ['deactivate', 4],
  ['downgrade', 2],
  ['upgrade', 2],
  ['update', 1],
  ['reactivate', 1],
  ['add', 1],
  ['remove', 1],
  ['add-alternate-email', 1],
  ['refused-user', 1],
  ['add-column', 1],
  ['update-column', 1],
  ['create-discussion', 1],
  ['webhook', 1],
] as const;

type Row = Record<string, unknown>;

function drawRow(context: DrawContext, kind: (typeof ROW_KINDS)[number][0]): Row | undefined {
  const { draw, population } = context;
  const member = () => draw.pick(population.members).email;
  switch (kind) {
    case 'deactivate':
      return { action: 'deactivate', email: member() };
    case 'downgrade':
      return { action: 'downgrade', email: draw.pick(population.onMemberSeat).email, seatType: 'CONTRIBUTOR' };
    case 'upgrade':
      return { action: 'upgrade', email: draw.pick(population.onLowerSeat).email, seatType: 'MEMBER' };
    case 'update':
      return { action: 'update', email: member(), firstName: `Renamed${draw.between(1, 999)}` };
    case 'reactivate':
      return { action: 'reactivate', email: draw.pick(population.deactivated).email };
    case 'add':
      return { action: 'add', email: `${context.fresh('contractor')}@acme.example`, firstName: 'Temp', lastName: 'Contractor' };
    case 'remove':
      return { action: 'remove', email: member(), transferTo: population.transferTarget.email };
    case 'add-alternate-email':
      return { action: 'add-alternate-email', email: member(), alternateEmail: `${context.fresh('alias')}@acme.example` };
    case 'refused-user':
      return population.refusable.length === 0 ? undefined : { action: 'deactivate', email: draw.pick(population.refusable).email };
    case 'add-column':
      return { action: 'add-column', sheetId: String(population.sheet.id), title: `Sim ${context.fresh('column')}`, type: 'TEXT_NUMBER', index: 1 };
    case 'update-column': {
      const column = population.sheet.columns.length === 0 ? undefined : draw.pick(population.sheet.columns);
      return column === undefined ? undefined : { action: 'update-column', sheetId: String(population.sheet.id), columnTitle: column.title, width: draw.between(60, 400) };
    }
    case 'create-discussion':
      return { action: 'create-discussion', sheetId: String(population.sheet.id), comment: `Checked by the simulation (${context.fresh('note')})` };
    case 'webhook': {
      const webhook = population.webhooks.length === 0 ? undefined : draw.pick(population.webhooks);
      return webhook === undefined ? undefined : { action: draw.chance(0.7) ? 'disable-webhook' : 'enable-webhook', webhookId: String(webhook.id) };
    }
  }
}

/**
 * A manifest of user-side and sheet-side rows, submitted through the control API (`POST /v1/batches`) by one of
 * the operators: mostly a handful of rows, sometimes more destructive rows than the approvals policy lets through
 * (the batch then waits for the approver). The plan the submission answers with is the promise.
 */
export const manifestBatch: OperatorAction = {
  name: 'manifest-batch',
  perDay: 3,
  hours: [8, 18],
  draw(context) {
    const { draw } = context;
    const big = draw.chance(0.15);
    const count = big ? draw.between(6, 9) : draw.between(1, 5);
    const weights = ROW_KINDS.reduce((sum, [, weight]) => sum + weight, 0);
    const rows: Row[] = [];
    for (let i = 0; i < count; i += 1) {
      let r = draw.next() * weights;
      const kind = ROW_KINDS.find(([, weight]) => (r -= weight) < 0)?.[0] ?? 'deactivate';
      const row = drawRow(context, big ? 'deactivate' : kind);
      if (row !== undefined) rows.push(row);
    }
    return rows.length === 0 ? undefined : { rows, name: `${context.fresh('manifest')}.jsonl`, operator: draw.chance(0.5) ? 'hr' : 'ops' };
  },
  async perform(params, context) {
    const rows = params.rows as Row[];
    const name = String(params.name);
    const operator = params.operator === 'hr' ? context.world.api.hr : context.world.api.ops;
    const bytes = `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
    const at = await context.now();
    const answer = await callWithRetries(() => operator.post(`/v1/batches?confirm=true&name=${encodeURIComponent(name)}&reason=simulation`, { bytes, type: 'application/x-ndjson' }));
    const body = answer.body as { batchId?: string; created?: boolean; existing?: boolean; awaitingApproval?: boolean; approval?: { id: string; planHash: string }; plan?: { rows: ShownRow[] }; queuedRows?: ShownRow[] } | undefined;
    // Refused as not acknowledged (no Redis replica took it), the batch named with its plan may still run.
    const unacknowledged = unacknowledgedPlan<{ rows: ShownRow[] }>(answer, 'batchId');
    const promise = (batchId: string, shown: ShownRow[], state: 'expected' | 'optional') =>
      promiseBatchPlan(context.ledger, { batchId, rows: shown, at, eventSeq: context.event.seq, state, label: `manifest ${name} (${batchId})` });
    if (body?.batchId === undefined || (answer.status !== 200 && answer.status !== 202)) {
      if (unacknowledged !== undefined) {
        const { keys } = promise(unacknowledged.id, unacknowledged.plan.rows, 'optional');
        await context.note(`manifest ${name}: batch ${unacknowledged.id} not acknowledged (${describeAnswer(answer)}); it may run as its refusal showed`);
        context.remember({ batchId: unacknowledged.id, promiseKeys: keys });
        return;
      }
      await context.note(`manifest ${name} (${rows.length} rows) refused: ${describeAnswer(answer)}`);
      return;
    }
    if (body.plan === undefined && unacknowledged?.id === body.batchId && body.awaitingApproval !== true) {
      // Found on a later try: the batch the refusal showed is this one, kept after all: acknowledged now.
      const { keys } = promise(body.batchId, unacknowledged.plan.rows, 'expected');
      await context.note(`manifest ${name}: batch ${body.batchId} queued (refused as not acknowledged, then found on a later try)`);
      context.remember({ batchId: body.batchId, promiseKeys: keys });
      return;
    }
    const promisedBefore = context.ledger.byPrefix(`${body.batchId}:`).length > 0;
    if (body.plan === undefined && answer.cutOff === true && body.queuedRows !== undefined && body.awaitingApproval !== true && !promisedBefore) {
      // An earlier try was cut off (503, no answer) after it kept the batch: the rows it queued, as the answer shows them.
      const { keys } = promise(body.batchId, body.queuedRows, 'expected');
      await context.note(`manifest ${name}: batch ${body.batchId} queued by a try cut off (${body.queuedRows.length} rows to change, as a later try showed them)`);
      context.remember({ batchId: body.batchId, promiseKeys: keys });
      return;
    }
    if (body.plan === undefined) {
      await context.note(`manifest ${name}: batch ${body.batchId} existed already (${answer.status}); nothing promised anew`);
      context.remember({ batchId: body.batchId });
      return;
    }
    const waiting = body.awaitingApproval === true;
    const { keys, unnamed } = promiseBatchPlan(context.ledger, { batchId: body.batchId, rows: body.plan.rows, at, eventSeq: context.event.seq, state: waiting ? 'awaiting-approval' : 'expected', label: `manifest ${name} (${body.batchId})` });
    const verdicts = countBy(body.plan.rows.map((row) => row.verdict));
    await context.note(`manifest ${name}: batch ${body.batchId} ${waiting ? `awaits approval ${body.approval?.id}` : 'queued'}; rows ${verdicts}${unnamed.length > 0 ? `; rows ${unnamed.join(', ')} change what the oracle cannot name` : ''}`);
    context.remember({ batchId: body.batchId, promiseKeys: keys, ...(waiting && body.approval !== undefined ? { approvalId: body.approval.id, planHash: body.approval.planHash } : {}) });
  },
};

function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${n} ${value}`).join(', ');
}
