import { endSteps } from './leaver-ends.js';
import { leaverChangedElsewhere } from './leaver-changed-elsewhere.js';
import { OPEN_PHASES, stepOf, type LeaverState } from './leaver-state.js';
import type { Lifecycle } from './lifecycle.js';
import { createOffboardingSteps } from './step-processor.js';
import { STEP_NAMES, type StepJobData } from './step-job.js';
import type { EngineContext, WorkflowContext } from './workflow-context.js';
import { createLeaverStore, createOffboardingRecords, createWorkflowStore, type WorkflowRecord } from './workflow-store.js';

/** The offboarding lifecycle's name, kept on nothing: records without a `lifecycle` field are offboardings. */
export const OFFBOARDING = 'offboarding';

/** The offboarding context over an engine's: the engine's, and the offboarding store with its leaving register. */
export function offboardingContextOf(context: EngineContext): WorkflowContext {
  const { redis, keys, target, records, replicated, batches, steps, clock, sim, logger, pollMs } = context;
  return {
    redis, keys, target, records, replicated, batches, steps, clock, sim, logger, pollMs,
    // Getters, not copies: the engine opens its queues when first used.
    get rowsQueue() {
      return context.rowsQueue;
    },
    get stepQueue() {
      return context.stepQueue;
    },
    store: createWorkflowStore(redis, keys, target, replicated),
  };
}

/**
 * Offboarding as a lifecycle of the engine: per leaver, on the leave date record the state and deactivate, hold, at the
 * end of the hold re-check and remove with transfer; undo before the removal queues a reactivation (and the seat
 * restore). The steps are step-processor.ts; planning, submission, undo, retry, status and report are beside it.
 */
export function createOffboardingLifecycle(engine: EngineContext): Lifecycle<WorkflowRecord, LeaverState> {
  const context = offboardingContextOf(engine);
  const { store } = context;
  return {
    name: OFFBOARDING,
    steps: STEP_NAMES,
    records: createOffboardingRecords(engine.redis, engine.keys),
    persons: createLeaverStore(engine.redis, engine.keys, engine.replicated),
    openPhases: OPEN_PHASES,
    runStep: createOffboardingSteps(context),
    async gaveUp(data: StepJobData, reason: string) {
      const workflow = await store.get(data.workflowId);
      if (workflow === undefined) return;
      const failed = await store.update(data.workflowId, data.row, (current) =>
        OPEN_PHASES.has(current.phase) && current.phase !== 'removing' && current.phase !== 'deactivating'
          ? { ...current, phase: 'failed', reason, steps: [...current.steps, stepOf(data.step as LeaverState['steps'][number]['step'], 'failed', new Date(engine.clock.now()), reason)] }
          : undefined,
      );
      if (failed === undefined) return;
      const end = { outcome: 'failed' as const, message: reason };
      await endSteps(context, workflow, failed, data.step === 'deactivate' ? { deactivate: end, remove: { outcome: 'skipped', message: 'not removed: an earlier step failed' }, reactivate: { outcome: 'skipped', message: 'not undone' } } : { remove: end, reactivate: { outcome: 'skipped', message: 'not undone' } });
    },
    // The hold ends now: the leaver's holdUntil says so (status, undo until, the report).
    broughtForward: (leaver, step, nowMs) => (step === 'remove' && leaver.phase === 'holding' ? { ...leaver, holdUntil: nowMs } : leaver),
    changedElsewhere: (workflow, leaver, change) => leaverChangedElsewhere(context, workflow, leaver, change),
  };
}
