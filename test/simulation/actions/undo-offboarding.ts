import type { Ledger } from '../ledger/ledger.js';
import { callWithRetries, describeAnswer } from './call-with-retries.js';
import type { OperatorAction } from './operator-action.js';

interface UndoAnswer {
  results?: { email: string; row?: number; result: string; reactivating?: boolean; message: string }[];
}

/**
 * HR undoes an offboarding, for one leaver or all (`POST /v1/offboardings/:id/undo`, as the Holds page does). Per
 * leaver the answer says what was done, and the promises follow it: `undone` without a reactivation means nothing was
 * done (the deactivation and the removal must never have happened); with a reactivation, the removal is withdrawn and
 * the reactivation (and a seat given back after it) is promised from now.
 */
export const undoOffboarding: OperatorAction = {
  name: 'undo-offboarding',
  perDay: 1,
  hours: [8, 20],
  draw(context) {
    const offboardings = context.earlier.filter((event) => event.kind === 'action' && event.name === 'offboard');
    if (offboardings.length === 0) return undefined;
    const event = context.draw.pick(offboardings.slice(-4));
    const leavers = (event.params.leavers as { email: string }[] | undefined) ?? [];
    const one = leavers.length > 0 && context.draw.chance(0.7) ? context.draw.pick(leavers).email : undefined;
    return { ref: event.seq, ...(one === undefined ? {} : { email: one }) };
  },
  async perform(params, context) {
    const handle = await context.handle(Number(params.ref));
    if (handle?.workflowId === undefined) {
      await context.note(`undo: event #${String(params.ref)} left no offboarding`);
      return;
    }
    const at = await context.now();
    const body = { by: 'hr-desk', reason: 'simulation', ...(typeof params.email === 'string' ? { users: [params.email] } : {}) };
    const answer = await callWithRetries(() => context.world.api.hr.post(`/v1/offboardings/${handle.workflowId}/undo`, { json: body }));
    const results = (answer.body as UndoAnswer | undefined)?.results;
    if (answer.status !== 200 || results === undefined) {
      await context.note(`undo ${handle.workflowId}${typeof params.email === 'string' ? ` ${params.email}` : ''}: ${describeAnswer(answer)}`);
      return;
    }
    for (const result of results) amendForUndo(context.ledger, handle.workflowId, result, at, context.event.seq);
    await context.note(`undo ${handle.workflowId}: ${results.map((result) => `${result.email} ${result.result}${result.reactivating === true ? ' (reactivating)' : ''}: ${result.message}`).join('; ')}`);
  },
};

/** The promises of one leaver after an undo answered `result` for them (also what a sync's undo does). */
export function amendForUndo(ledger: Ledger, workflowId: string, result: NonNullable<UndoAnswer['results']>[number], at: number, eventSeq: number): void {
  if (result.result !== 'undone') return;
  const deactivate = ledger.get(`${workflowId}:${result.email}:deactivate`);
  const remove = ledger.get(`${workflowId}:${result.email}:remove`);
  const said = `undo at ${new Date(at).toISOString()}: ${result.message}`;
  if (result.reactivating !== true) {
    // "Nothing was done": neither step may have happened, before the undo or after it.
    if (deactivate !== undefined) ledger.amend(deactivate.key, { state: 'withdrawn' }, 0, said);
    if (remove !== undefined) ledger.amend(remove.key, { state: 'withdrawn' }, 0, said);
    return;
  }
  if (remove !== undefined) ledger.amend(remove.key, { state: 'withdrawn' }, 0, said);
  const subject = (deactivate ?? remove)?.changes[0]?.subject;
  if (subject === undefined || ledger.get(`${workflowId}:${result.email}:reactivate`) !== undefined) return;
  const row = result.row ?? deactivate?.outcome?.row;
  ledger.promise({
    key: `${workflowId}:${result.email}:reactivate`,
    eventSeq,
    label: `undo of ${workflowId}: reactivate ${result.email}`,
    changes: [{ operation: 'reactivateUser', subject }],
    notBefore: at,
    state: 'expected',
    since: at,
    outcome: { batchIds: [`${workflowId}-reactivate`], ...(row === undefined ? { email: result.email } : { row }) },
  });
  ledger.promise({
    key: `${workflowId}:${result.email}:restore`,
    eventSeq,
    label: `undo of ${workflowId}: the seat before, given back to ${result.email}`,
    changes: [{ operation: 'downgradeUser', subject }],
    notBefore: at,
    state: 'optional',
    since: at,
    outcome: { batchIds: [`${workflowId}-restore`], ...(row === undefined ? { email: result.email } : { row }) },
  });
}
