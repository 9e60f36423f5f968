import { z } from 'zod';
import type { SmartsheetApi } from '../../client/smartsheet-api.js';
import type { Config } from '../../core/config.js';
import type { BatchSystem } from '../../queue/batch-system.js';
import { planReconciliation } from '../../reconcile/plan-reconciliation.js';
import { runIdOf, submitReconciliationPlan } from '../../reconcile/run-reconciliation.js';
import type { ChangeKindHandler } from '../approvals/change-kind.js';
import { fingerprintOfBatchPlan } from '../approvals/plan-fingerprint.js';

/** What a reconciliation run is planned from: its policy file (read again) and the run it is. */
export const reconciliationInputSchema = z.object({
  policyPath: z.string(),
  runKey: z.string(),
  /** ISO: with runKey, the run's identity and so its batch id. */
  runAt: z.string(),
  /** The users a drift's reconciliation was restricted to (docs/events.md#drift). */
  emails: z.array(z.string()).optional(),
});
export type ReconciliationInput = z.infer<typeof reconciliationInputSchema>;

export interface ReconciliationPlanning {
  api: SmartsheetApi;
  guardrails: Config['guardrails'];
  system: Pick<BatchSystem, 'submit'>;
}

/**
 * A reconciliation run (`seatflow reconcile --apply`, a schedule's run). Re-planned, it reads the policy and live seats
 * again and measures ages from now: a user whose last login crossed a rule's limit since makes the plan stale.
 */
export function createReconciliationKind(planning: ReconciliationPlanning): ChangeKindHandler {
  return {
    kind: 'reconciliation',
    async replan(raw) {
      const input = reconciliationInputSchema.parse(raw);
      const plan = await planReconciliation({ policyPath: input.policyPath, api: planning.api, guardrails: planning.guardrails, now: new Date(), ...(input.emails === undefined ? {} : { onlyEmails: input.emails }) });
      const runId = runIdOf(input.runKey, new Date(input.runAt));
      return {
        plan: fingerprintOfBatchPlan(plan.plan),
        queue: async () => {
          const submitted = await submitReconciliationPlan(planning.system, plan, runId);
          return { id: submitted.batch.id, created: submitted.created };
        },
      };
    },
  };
}
