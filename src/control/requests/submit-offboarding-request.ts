import { fingerprintOfOffboarding, offboardingInputOf } from '../../governance/kinds/offboarding-kind.js';
import type { Actor } from '../../governance/operators/actor.js';
import type { OffboardingPlan } from '../../workflow/plan-offboarding.js';
import { workflowIdOf, type SubmittedOffboarding } from '../../workflow/submit-offboarding.js';
import type { ControlDeps, ControlOffboardingDeps } from '../control-deps.js';
import { approvalView, type ApprovalView } from './approval-view.js';
import { withRedis } from '../with-redis.js';

export interface OffboardingSubmission {
  plan: OffboardingPlan;
  /** The leavers file as uploaded, and its name: what an approval plans again from. */
  bytes: Buffer;
  name: string;
  actor?: Actor | undefined;
  reason?: string | undefined;
}

/**
 * `seatflow offboard`'s queue step for the control API and the dashboard (one function, so both act alike): through
 * the approvals gate when the server has governance, so an offboarding over the thresholds waits for a second person.
 */
export async function submitOffboardingRequest(deps: ControlDeps, offboarding: ControlOffboardingDeps, submission: OffboardingSubmission): Promise<SubmittedOffboarding | { awaitingApproval: ApprovalView; created: boolean }> {
  const { plan } = submission;
  let submitted: SubmittedOffboarding | undefined;
  const queue = async () => (submitted = await withRedis(deps, () => offboarding.system.submit(plan), { timeout: false }));
  const governance = deps.governance;
  if (governance === undefined) return queue();
  const gated = await withRedis(
    deps,
    () =>
      governance.gate.submit(
        {
          kind: 'offboarding',
          id: workflowIdOf(plan, deps.target.id),
          subject: plan.source.path,
          target: deps.target.id,
          sim: deps.target.sim,
          plan: fingerprintOfOffboarding(plan),
          guardrails: plan.guardrails.reasons,
          input: offboardingInputOf(submission.name, submission.bytes, plan.options),
          requestedBy: submission.actor ?? governance.operators.byToken(deps.token)!,
          reason: submission.reason,
        },
        async () => {
          const done = await queue();
          return { id: done.workflow.id, created: done.created };
        },
      ),
    { timeout: false },
  );
  if (gated.status === 'awaiting-approval') return { awaitingApproval: approvalView(gated.request, deps.rate), created: gated.created };
  return submitted ?? queue();
}
