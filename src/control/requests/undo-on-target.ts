import { auditUndo } from '../../governance/audit/audit-undo.js';
import type { ControlRequest } from '../../governance/audit/audit-batch-control.js';
import type { UndoResult } from '../../workflow/undo-offboarding.js';
import type { ControlDeps, ControlOffboardingDeps } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError, offboardingNotFound } from '../control-error.js';
import { withRedis } from '../with-redis.js';

/**
 * Undo of an offboarding for the control API and the dashboard (one function, so both act alike). Like `seatflow
 * undo`, it acts only on an offboarding of this server's target: a reactivation is a row of this target's queue, so
 * undoing another target's offboarding here would reactivate the user on the wrong service (an old `--sim` run's
 * records stay in a kept Redis, for one). The offboarding records who undid it and from where (`alice (dashboard)`,
 * or whom an API caller names), the audit trail who was signed in, with the reason.
 */
export async function undoOnTarget(deps: ControlDeps, offboarding: ControlOffboardingDeps, workflowId: string, request: ControlRequest & { users?: string[] | undefined; recordedAs?: string | undefined }): Promise<UndoResult[]> {
  const { system } = offboarding;
  const workflow = await withRedis(deps, () => system.store.get(workflowId));
  if (workflow === undefined) throw offboardingNotFound(workflowId);
  if (workflow.target !== deps.target.id) {
    throw new ControlError(409, CONTROL_ERROR_CODES.conflict, `offboarding ${workflowId} was submitted for ${workflow.target}, not this server's target (${deps.target.id}): nothing was undone`, {
      hint: workflow.sim ? 'It was a simulation: its reference server ended with that process.' : 'Undo it with seatflow undo against its target (SMARTSHEET_API_BASE).',
    });
  }
  const by = request.recordedAs ?? `${request.by} (${request.via})`;
  const results = await withRedis(deps, () => system.undo(workflowId, { by, ...(request.users === undefined ? {} : { users: request.users }) }), { timeout: false });
  if (results === undefined) throw offboardingNotFound(workflowId);
  if (deps.governance !== undefined) await withRedis(deps, () => auditUndo(deps.governance!.audit, { workflowId, by: request.by, reason: request.reason, results }));
  return results;
}
