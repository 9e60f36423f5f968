import { z } from 'zod';
import type { BatchSystem } from '../../queue/batch-system.js';
import type { ChangeKindHandler } from '../approvals/change-kind.js';
import { fingerprintOfBatchPlan } from '../approvals/plan-fingerprint.js';
import { planRevert, revertBatchOptions, type PlanRevertOptions } from '../revert/plan-revert.js';

export const revertInputSchema = z.object({ batchId: z.string() });

/** A revert of a batch (`seatflow revert BATCH`): the inverse rows, planned again against live state. */
export function createRevertKind(planning: Omit<PlanRevertOptions, 'batchId'>, system: Pick<BatchSystem, 'submit'>): ChangeKindHandler {
  return {
    kind: 'revert',
    async replan(raw) {
      const { batchId } = revertInputSchema.parse(raw);
      const revert = await planRevert({ ...planning, batchId });
      return {
        plan: fingerprintOfBatchPlan(revert.plan),
        queue: async () => {
          const submitted = await system.submit(revert.plan, { options: revertBatchOptions(batchId) });
          return { id: submitted.batch.id, created: submitted.created };
        },
      };
    },
  };
}
