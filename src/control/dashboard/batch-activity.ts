import type { BatchRecord } from '../../queue/batch-store.js';
import { rowsWithOutcome } from '../../queue/row-outcome.js';
import { OPEN_PHASES, type LeaverPhase } from '../../workflow/leaver-state.js';
import type { OffboardingStatus } from '../../workflow/offboarding-status.js';
import type { StepBatch } from '../../workflow/leaver-ends.js';

/**
 * What a person should read about a batch, which its stored state alone does not say:
 * - queued: every row is queued and none has started yet; running: some row has started;
 * - waiting: a step batch of an offboarding between steps (its rows run on leave dates and at the end of holds,
 *   possibly weeks away) — nothing moves until then;
 * - cancelling: cancelled, but rows that were running when it was cancelled have not ended yet;
 * - the stored states otherwise (submitting, stopped, finished, cancelled).
 */
export type BatchActivityLabel = 'submitting' | 'queued' | 'running' | 'waiting' | 'cancelling' | 'stopped' | 'finished' | 'cancelled';

export interface BatchActivity {
  label: BatchActivityLabel;
  /** Whether the batch can change without anyone pressing a button: pages showing it keep refreshing. */
  moving: boolean;
  /** When the next step of a waiting step batch is due (ISO). */
  nextDueAt?: string;
}

/** What is known of a step batch's offboarding: its step, and the leavers' phases and next steps. */
export interface StepBatchFacts {
  step: StepBatch;
  status: Pick<OffboardingStatus, 'phases' | 'leavers'>;
}

export function batchActivity(batch: BatchRecord, facts: { rowsStarted: number; step?: StepBatchFacts | undefined }): BatchActivity {
  const done = rowsWithOutcome(batch.counts);
  switch (batch.state) {
    case 'finished':
    case 'stopped':
      return { label: batch.state, moving: false };
    case 'cancelled':
      return done < batch.total ? { label: 'cancelling', moving: true } : { label: 'cancelled', moving: false };
    case 'submitting':
      return { label: 'submitting', moving: true };
    case 'queued':
      if (facts.step !== undefined) return stepActivity(batch, facts.step);
      return facts.rowsStarted > 0 ? { label: 'running', moving: true } : { label: 'queued', moving: true };
  }
}

/**
 * A step batch runs while one of its offboarding's leavers is in that step (deactivating, removing, or undone with
 * the reactivation or the seat restore not yet ended); otherwise it waits for the next leave date or hold end.
 */
function stepActivity(batch: BatchRecord, { step, status }: StepBatchFacts): BatchActivity {
  const { phases } = status;
  let running: boolean;
  if (step === 'deactivate') running = (phases.deactivating ?? 0) > 0;
  else if (step === 'remove') running = (phases.removing ?? 0) > 0;
  else {
    // Every leaver who reached an end has its reactivate and restore outcomes, except one undone whose reactivation
    // (or the seat given back after it) still runs.
    const ended = Object.entries(phases).reduce((sum, [phase, n]) => sum + (OPEN_PHASES.has(phase as LeaverPhase) ? 0 : (n ?? 0)), 0);
    running = ended > rowsWithOutcome(batch.counts);
  }
  if (running) return { label: 'running', moving: true };
  const due = status.leavers
    .map((leaver) => leaver.next)
    .filter((next) => next !== undefined && next.step === step)
    .map((next) => next!.dueAt)
    .sort()[0];
  return { label: 'waiting', moving: false, ...(due === undefined ? {} : { nextDueAt: due }) };
}
