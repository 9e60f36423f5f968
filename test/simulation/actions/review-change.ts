import { callWithRetries, describeAnswer } from './call-with-retries.js';
import type { OperatorAction } from './operator-action.js';

/** Actions whose change may wait for approval. */
const GATED = new Set(['manifest-batch', 'offboard', 'revert']);

/**
 * The approver looks at a change waiting for approval (an earlier batch, offboarding or sync of the run) and approves
 * it with the plan hash the requester was shown (`POST /v1/approvals/:id/approve?planHash=`), or rejects it. Approved,
 * the promises of that plan stand; re-planned (live state changed), they keep waiting; rejected, they are withdrawn.
 */
export const reviewChange: OperatorAction = {
  name: 'review-change',
  perDay: 3,
  hours: [8, 19],
  draw(context) {
    const candidates = context.earlier.filter((event) => event.kind === 'action' && GATED.has(event.name));
    if (candidates.length === 0) return undefined;
    // Recent requests are looked at first, as an approver's queue is.
    const recent = candidates.slice(-4);
    return { ref: context.draw.pick(recent).seq, decision: context.draw.chance(0.75) ? 'approve' : 'reject' };
  },
  async perform(params, context) {
    const ref = Number(params.ref);
    const handle = await context.handle(ref);
    if (handle?.approvalId === undefined || handle.planHash === undefined) {
      await context.note(`review of event #${ref}: nothing of it waits for approval`);
      return;
    }
    const at = await context.now();
    const keys = handle.promiseKeys ?? [];
    const pending = keys.filter((key) => context.ledger.get(key)?.state === 'awaiting-approval');
    if (pending.length === 0 && keys.length > 0) {
      await context.note(`review of ${handle.approvalId}: decided before`);
      return;
    }
    const { approver } = context.world.api;
    if (params.decision === 'reject') {
      const answer = await callWithRetries(() => approver.post(`/v1/approvals/${handle.approvalId}/reject?reason=${encodeURIComponent('not this week (simulation)')}`));
      const state = (answer.body as { state?: string } | undefined)?.state;
      if (answer.status === 200 && state === 'rejected') {
        for (const key of pending) context.ledger.amend(key, { state: 'withdrawn' }, at, `rejected by approver (${handle.approvalId})`);
      }
      await context.note(`reject ${handle.approvalId}: ${answer.status === 200 ? `now ${state}` : describeAnswer(answer)}`);
      return;
    }
    const answer = await callWithRetries(() => approver.post(`/v1/approvals/${handle.approvalId}/approve?planHash=${handle.planHash}&reason=simulation`));
    const status = (answer.body as { status?: string } | undefined)?.status;
    if (answer.status === 200 && status === 'queued') {
      for (const key of pending) context.ledger.amend(key, { state: 'expected' }, at, `approved by approver (${handle.approvalId})`);
    }
    await context.note(`approve ${handle.approvalId} (plan ${handle.planHash.slice(0, 12)}): ${answer.status} ${status ?? describeAnswer(answer)}`);
  },
};
