import { DelayedError } from 'bullmq';
import { isApiError } from '../client/api-error.js';
import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { PlannedRow } from '../plan/planned-row.js';
import type { RowOutcome } from '../queue/row-outcome.js';
import { captureStateBefore } from './capture-state-before.js';
import { closeLeaver, endSteps, leaverOutcome } from './leaver-ends.js';
import { OPEN_PHASES, stepOf, type LeaverState } from './leaver-state.js';
import type { RowWait, StepRun } from './lifecycle.js';
import { reactivationSeatOf } from './reactivation-seat.js';
import { reactivateRow, removeRow } from './leaver-rows.js';
import { recheckBeforeRemoval } from './recheck-before-removal.js';
import { stepJobOptions, type StepJobData } from './step-job.js';
import { rowOutcomeOf } from './step-rows.js';
import { createTransferTargets } from './transfer-targets.js';
import { settledNotes, unconfirmedAndGone, unconfirmedNote, waitOnUnconfirmed } from './unconfirmed-row.js';
import { leftOrganization } from './user-in-organization.js';
import type { WorkflowContext } from './workflow-context.js';
import type { WorkflowRecord } from './workflow-store.js';

const DONE: ReadonlySet<RowOutcome['outcome']> = new Set(['succeeded', 'unchanged']);

/**
 * The steps of one leaver, as the offboarding lifecycle runs them on the engine (step-runner.ts). Every step reads the
 * leaver's phase and does only what that phase still needs, so a step run twice (a killed worker, a Redis restart, a
 * step added again) repeats nothing: the change itself is a row of a step batch, run by the existing row processor with
 * its confirm-before-repeat.
 */
export function createOffboardingSteps(options: WorkflowContext) {
  const { store, batches, clock } = options;
  // One read of a transfer target serves the removals of its offboarding that run close together.
  const targets = createTransferTargets();

  return async function runStep(run: StepRun<WorkflowRecord, LeaverState>): Promise<string> {
    const { data, workflow, person: leaver, api, signal } = run;
    const { row, step } = data;
    const workflowId = workflow.id;
    if (step === 'reactivate') return reactivate(workflow, leaver, data.dueAt, run);
    // A step run again after its worker died between ending the leaver and recording the ends of the steps that will
    // not run, or closing it: the ends the phase implies are recorded now (a step that has one keeps it), and the
    // leaver closed (soak seed 4105: a worker killed just after "removed" left the reactivate and restore batches
    // open for good).
    if (!OPEN_PHASES.has(leaver.phase)) {
      const ends = endsOfPhase(leaver);
      if (ends !== undefined) await endSteps(options, workflow, leaver, ends);
      else if (workflow.state === 'open') await closeLeaver(options, workflow, leaver);
      return leaver.phase;
    }
    try {
      return step === 'deactivate' ? await deactivate(workflow, leaver, api, data.dueAt, run, signal) : await remove(workflow, leaver, api, data.dueAt, run, signal);
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      // A refusal that repeating cannot change ends the leaver; anything passing (5xx, network, Redis) is retried.
      if (isApiError(error) && !error.retryable && error.category !== 'Authorization') {
        const failed = await store.update(workflowId, row, (current) =>
          current.phase === (step === 'deactivate' ? 'scheduled' : 'holding')
            ? { ...current, phase: 'failed', reason: error.message, steps: [...current.steps, stepOf(step === 'deactivate' ? 'state-recorded' : 'recheck', 'failed', new Date(clock.now()), error.message)] }
            : undefined,
        );
        if (failed !== undefined) {
          const end = { outcome: 'failed' as const, message: error.message, extra: { category: error.category, ...(error.status === undefined ? {} : { status: error.status }), ...(error.errorCode === undefined ? {} : { errorCode: error.errorCode }) } };
          await endSteps(options, workflow, failed, step === 'deactivate' ? { deactivate: end, remove: skipped('not removed: an earlier step failed'), reactivate: notUndone } : { remove: end, reactivate: notUndone });
          return 'failed';
        }
      }
      throw error;
    }
  };

  async function deactivate(workflow: WorkflowRecord, start: LeaverState, api: SmartsheetApi, dueAt: number, wait: RowWait, signal?: AbortSignal): Promise<string> {
    let leaver: LeaverState | undefined = start;
    if (leaver.phase === 'scheduled') {
      const userId = leaver.userId;
      if (userId === undefined) throw new Error(`leaver row ${leaver.row} has no user id`);
      const now = new Date(clock.now());
      const before = await captureStateBefore(api, { ...leaver, userId }, { at: now, ...(signal === undefined ? {} : { signal }) });
      leaver = (await store.update(workflow.id, leaver.row, (current) =>
        current.phase !== 'scheduled'
          ? undefined
          : { ...current, phase: 'deactivating', stateBefore: before, deactivateRequestedAt: clock.now(), steps: [...current.steps, stepOf('state-recorded', 'recorded', now, `status ${before.status ?? 'hidden'}`)] },
      )) ?? (await store.getLeaver(workflow.id, leaver.row));
    }
    if (leaver?.phase === 'deactivating') {
      const outcome = await rowOutcomeOf(options, { batchId: workflow.deactivateBatch, row: leaver.row, dueAt }, wait);
      if (outcome.outcome === 'unknown') {
        // Unconfirmable because the user left meanwhile (soak seed 6911: a manifest removed them while the row waited
        // for the service's events, and the confirming read answered 404): no retry could settle it.
        if (await leftOrganization(api, leaver, signal)) return leftMeanwhile(workflow, leaver, outcome);
        return waitForUnknown(workflow, leaver, workflow.deactivateBatch, wait);
      }
      const at = new Date(clock.now());
      if (DONE.has(outcome.outcome)) {
        const holdUntil = (leaver.deactivateRequestedAt ?? clock.now()) + workflow.holdMs;
        leaver = (await store.update(workflow.id, leaver.row, (current) =>
          current.phase !== 'deactivating'
            ? undefined
            : {
                ...current,
                phase: 'holding',
                holdUntil,
                notes: settledNotes(current.notes),
                steps: [...current.steps, stepOf('deactivate', outcome.outcome, new Date(outcome.finishedAt), outcome.message), stepOf('hold', 'started', at, `removal due ${new Date(holdUntil).toISOString()}`)],
              },
        )) ?? (await store.getLeaver(workflow.id, leaver.row));
      } else {
        const reason = `deactivation ${outcome.outcome}: ${outcome.message ?? ''}`.trim();
        const failed = await store.update(workflow.id, leaver.row, (current) =>
          current.phase !== 'deactivating' ? undefined : { ...current, phase: 'failed', reason, notes: settledNotes(current.notes), steps: [...current.steps, stepOf('deactivate', outcome.outcome, new Date(outcome.finishedAt), outcome.message)] },
        );
        if (failed !== undefined) await endSteps(options, workflow, failed, { remove: skipped('not removed: the deactivation did not succeed'), reactivate: notUndone });
        return 'failed';
      }
    }
    if (leaver?.phase === 'holding' && leaver.holdUntil !== undefined) {
      const data: StepJobData = { workflowId: workflow.id, row: leaver.row, step: 'remove', dueAt: leaver.holdUntil };
      await batches.rowLifecycle.schedule(workflow.removeBatch, [leaver.row], leaver.holdUntil);
      await options.steps.add(workflow.id, [data]);
      await options.stepQueue.add('remove', data, stepJobOptions(data, clock.now()));
    }
    return leaver?.phase ?? 'missing';
  }

  /**
   * After an undo: reactivate (a row of the reactivate batch), then give back the seat held before where it was lower
   * than the Member seat the reactivation assigns (a downgrade row of the restore batch; reactivation-seat.ts).
   */
  async function reactivate(workflow: WorkflowRecord, leaver: LeaverState, dueAt: number, wait: RowWait): Promise<string> {
    if (leaver.phase !== 'undone') return leaver.phase;
    // Undo saves the row after the phase: should a failover drop the row, the phase says what it is.
    const outcome = await rowOutcomeOf(options, { batchId: workflow.reactivateBatch, row: leaver.row, dueAt, planned: reactivateRow(leaver) }, wait);
    const restoreBatch = workflow.restoreBatch;
    if (restoreBatch === undefined || (await batches.hasOutcome(restoreBatch, leaver.row))) return 'undone';
    const seat = reactivationSeatOf(leaver.stateBefore);
    const at = new Date(clock.now());
    if (!DONE.has(outcome.outcome) || seat.restore === undefined) {
      const message =
        outcome.outcome === 'unknown' ? `${unconfirmedNote('reactivation', workflow.reactivateBatch)}; the seat is restored after it`
        : !DONE.has(outcome.outcome) ? `not reactivated (${outcome.outcome}): no seat to restore`
        : `no seat to restore: ${seat.cost}`;
      await batches.recordOutcome(leaverOutcome(restoreBatch, leaver, 'restore', skipped(message), options.sim, at));
      return 'undone';
    }
    if ((await batches.getRow(restoreBatch, leaver.row)) === undefined) {
      // Reactivated by this row: the service assigned a Member seat, which is the seat before the restore (no read).
      await batches.saveRows(restoreBatch, [restoreRow(leaver, seat.restore, outcome.outcome === 'succeeded' ? 'MEMBER' : undefined)]);
      await store.update(workflow.id, leaver.row, (current) => ({ ...current, steps: [...current.steps, stepOf('restore', 'queued', at, seat.cost)] }));
    }
    // The step is done when the seat is back: until then it stays in the index, so `settled` (undo, offboard) waits.
    await rowOutcomeOf(options, { batchId: restoreBatch, row: leaver.row, dueAt }, wait);
    return 'undone';
  }

  /**
   * The deactivate row ended `unknown` and the user has left the organization since: the leaver ends `skipped`, not
   * removed by this offboarding. The row keeps its `unknown` (the deactivation may have landed before they left).
   */
  async function leftMeanwhile(workflow: WorkflowRecord, leaver: LeaverState, outcome: RowOutcome): Promise<string> {
    const reason = unconfirmedAndGone('deactivation', leaver.email);
    const ended = await store.update(workflow.id, leaver.row, (current) =>
      current.phase !== 'deactivating' ? undefined : { ...current, phase: 'skipped', reason, notes: settledNotes(current.notes), steps: [...current.steps, stepOf('deactivate', outcome.outcome, new Date(outcome.finishedAt), outcome.message)] },
    );
    if (ended === undefined) return (await store.getLeaver(workflow.id, leaver.row))?.phase ?? 'missing';
    await endSteps(options, workflow, ended, { remove: skipped(`not removed: ${reason}`), reactivate: notUndone });
    return 'skipped';
  }

  /** The step's row ended `unknown`: the leaver waits, with a note saying how to settle it (unconfirmed-row.ts). */
  function waitForUnknown(workflow: WorkflowRecord, leaver: LeaverState, batchId: string, wait: RowWait): Promise<never> {
    const note = unconfirmedNote(batchId === workflow.deactivateBatch ? 'deactivation' : 'removal', batchId);
    return waitOnUnconfirmed(store, workflow.id, leaver, note, wait);
  }

  async function remove(workflow: WorkflowRecord, start: LeaverState, api: SmartsheetApi, dueAt: number, wait: RowWait, signal?: AbortSignal): Promise<string> {
    let leaver: LeaverState | undefined = start;
    // A removal under way already (its row queued, running or ended) was decided by a re-check that passed: a failover
    // that dropped the phase written after it must not make the next run check again and take the user it removed
    // for one "removed by someone else" (soak Sentinel seeds 2604, 3602). The row confirms before it acts again.
    const underWay = leaver.phase === 'holding' ? await removalUnderWay(workflow, leaver) : undefined;
    if (leaver.phase === 'holding' && underWay !== undefined) {
      const at = new Date(clock.now());
      leaver =
        (await store.update(workflow.id, leaver.row, (current) =>
          current.phase !== 'holding'
            ? undefined
            : { ...current, phase: 'removing', ...(underWay.transferTo === undefined ? {} : { transferUsed: underWay.transferTo }), steps: [...current.steps, stepOf('recheck', 'passed', at, 'the removal was under way already')] },
        )) ?? (await store.getLeaver(workflow.id, leaver.row));
    } else if (leaver.phase === 'holding') {
      const check = await recheckBeforeRemoval(leaver, {
        api,
        workflowId: workflow.id,
        fallback: workflow.transferTo,
        leavingIn: (userId) => store.leavingIn(userId),
        targets,
        ...(signal === undefined ? {} : { signal }),
      });
      const at = new Date(clock.now());
      if (check.kind !== 'remove') {
        const phase = check.kind === 'skip' ? 'skipped' : 'failed';
        const ended = await store.update(workflow.id, leaver.row, (current) =>
          current.phase !== 'holding' ? undefined : { ...current, phase, reason: check.reason, steps: [...current.steps, stepOf('recheck', phase, at, check.reason)] },
        );
        if (ended === undefined) return (await store.getLeaver(workflow.id, start.row))?.phase ?? 'missing';
        const end = check.kind === 'skip' ? skipped(check.reason) : { outcome: 'failed' as const, message: check.reason, extra: { category: 'Refused', rule: 'transfer-target-invalid' } };
        await endSteps(options, workflow, ended, { remove: end, reactivate: notUndone });
        return phase;
      }
      await batches.saveRows(workflow.removeBatch, [removeRow(workflow, leaver, check.transferTo)]);
      leaver = (await store.update(workflow.id, leaver.row, (current) =>
        current.phase !== 'holding'
          ? undefined
          : {
              ...current,
              phase: 'removing',
              ...(check.transferTo === undefined ? {} : { transferUsed: check.transferTo }),
              ...(check.groups === undefined ? {} : { groupsAtRemoval: [...check.groups] }),
              steps: [...current.steps, stepOf('recheck', 'passed', at, check.note ?? (check.transferTo === undefined ? 'still deactivated; no transfer target' : `still deactivated; transfer to ${check.transferTo.email}`))],
            },
      )) ?? (await store.getLeaver(workflow.id, leaver.row));
    }
    if (leaver?.phase === 'removing') {
      // The row is saved before the phase, but a Redis failover between the two writes can keep the phase and drop the
      // row: the phase is the state, and the row follows from it (the transfer target recorded with it).
      const planned = removeRow(workflow, leaver, leaver.transferUsed);
      const outcome = await rowOutcomeOf(options, { batchId: workflow.removeBatch, row: leaver.row, dueAt, planned }, wait);
      if (outcome.outcome === 'unknown') return waitForUnknown(workflow, leaver, workflow.removeBatch, wait);
      const phase = DONE.has(outcome.outcome) ? 'removed' : 'failed';
      // The service refused it (say its target changed since it was read): the next removal reads the targets again.
      if (phase === 'failed') targets.forget(workflow.id);
      const ended = await store.update(workflow.id, leaver.row, (current) =>
        current.phase !== 'removing'
          ? undefined
          : { ...current, phase, notes: settledNotes(current.notes), ...(phase === 'failed' ? { reason: `removal ${outcome.outcome}: ${outcome.message ?? ''}`.trim() } : {}), steps: [...current.steps, stepOf('remove', outcome.outcome, new Date(outcome.finishedAt), outcome.message)] },
      );
      if (ended !== undefined) await endSteps(options, workflow, ended, { reactivate: phase === 'removed' ? skipped('removed: nothing to undo') : notUndone });
      return phase;
    }
    return leaver?.phase ?? 'missing';
  }

  /** The leaver's remove row when a worker has it or had it (queued, running or ended), with the transfer target it names. */
  async function removalUnderWay(workflow: WorkflowRecord, leaver: LeaverState): Promise<{ transferTo?: { email: string; userId: number } } | undefined> {
    const planned = await batches.getRow(workflow.removeBatch, leaver.row);
    if (planned === undefined) return undefined;
    const { state } = await batches.rowLifecycle.statusOf(workflow.removeBatch, leaver.row);
    if (state !== 'queued' && state !== 'running' && state !== 'ended' && !(await batches.hasOutcome(workflow.removeBatch, leaver.row))) return undefined;
    const email = planned.action?.action === 'remove' ? planned.action.transferTo?.email : undefined;
    const userId = planned.target.transferToUserId;
    return email === undefined || userId === undefined ? {} : { transferTo: { email, userId } };
  }
}

function skipped(message: string) {
  return { outcome: 'skipped' as const, message };
}

const notUndone = skipped('not undone');

/**
 * The ends of the steps that will not run, as a leaver's final phase implies them (what the step that ended the leaver
 * recorded beside the phase); undefined for a phase whose ends the undo records (undone).
 */
function endsOfPhase(leaver: LeaverState): Partial<Record<'remove' | 'reactivate', ReturnType<typeof skipped>>> | undefined {
  if (leaver.phase === 'removed') return { reactivate: skipped('removed: nothing to undo') };
  if (leaver.phase === 'skipped' || leaver.phase === 'failed' || leaver.phase === 'refused') return { remove: skipped(`not removed: ${leaver.reason ?? leaver.phase}`), reactivate: notUndone };
  return undefined;
}

/**
 * The downgrade row that gives a reactivated leaver back the seat held before, in the plan it was held in; `seatNow`:
 * the seat the user holds before the downgrade, when known (the revert of the row gives it back).
 */
function restoreRow(leaver: LeaverState, restore: { planId: number; seatType: 'GUEST' | 'CONTRIBUTOR' }, seatNow: string | undefined): PlannedRow {
  return {
    row: leaver.row,
    line: leaver.line,
    action: { action: 'downgrade', user: { email: leaver.email }, planId: restore.planId, seatType: restore.seatType },
    actionName: 'downgrade',
    verdict: 'change',
    target: { ...(leaver.userId === undefined ? {} : { userId: leaver.userId }), email: leaver.email, planId: restore.planId, ...(seatNow === undefined ? {} : { seatBefore: { seatType: seatNow } }) },
  };
}
