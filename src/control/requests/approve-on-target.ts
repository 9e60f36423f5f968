import type { Actor } from '../../governance/operators/actor.js';
import type { ControlDeps, ControlGovernanceDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { approvalView, type ApprovalView } from './approval-view.js';
import { requireTarget } from './require-target.js';
import { withRedis } from '../with-redis.js';

export type ApproveAnswer =
  | { status: 'queued'; id: string; created: boolean; approval: ApprovalView }
  | { status: 'replanned'; difference: string[]; approval: ApprovalView };

/**
 * Approving for the control API and the dashboard (one function, so both act alike): only a request of this server's
 * target (the approval re-plans it against that service), then the gate (never the requester; queued only if the
 * fresh plan is the approved one).
 */
export async function approveOnTarget(deps: ControlDeps, governance: ControlGovernanceDeps, id: string, actor: Actor, options: { planHash?: string | undefined; reason?: string | undefined }): Promise<ApproveAnswer> {
  requireTarget(deps);
  const record = await withRedis(deps, () => governance.gate.get(id));
  if (record !== undefined && record.target !== deps.target.id) {
    throw new ControlError(409, CONTROL_ERROR_CODES.conflict, `${id} was asked for ${record.target}, not this server's target (${deps.target.id}): it is approved where it can be planned again`, {
      hint: 'Approve it with seatflow approve against its target.',
    });
  }
  const result = await withRedis(deps, () => governance.gate.approve(id, actor, options, governance.kinds), { timeout: false });
  if (result.status === 'replanned') return { status: 'replanned', difference: result.difference, approval: approvalView(result.request, deps.rate) };
  return { status: 'queued', id: result.queued.id, created: result.queued.created, approval: approvalView(result.request, deps.rate) };
}
