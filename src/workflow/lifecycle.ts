import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { RowWaiter } from '../queue/row-waiter.js';
import type { PersonStore } from './person-store.js';
import type { RecordStore } from './record-store.js';
import type { StepJobData } from './step-job.js';
import { DEFAULT_LIFECYCLE, type ChangeElsewhere, type PersonBase, type WorkflowBase } from './workflow-shapes.js';

/**
 * A lifecycle is what the timed-step engine runs for each person of a workflow: effective-dated steps over the
 * existing job types, with compare-and-set phases. Offboarding (leave date → deactivate → hold → remove with transfer)
 * is one (offboarding-lifecycle.ts); joiners and movers are others (src/sync). The engine (workflow-engine.ts) owns what
 * they share: the step queue and its jobs, the index of steps to come, the sweep on the service clock, polling a row's
 * outcome (woken by its end), steps run now, BullMQ giving up, and a workflow that finishes with its last person. A lifecycle owns what
 * its steps do.
 */

/**
 * How a step waits for the row it queued (step-rows.ts): as delayed work, not a timer. The row's end wakes it at once
 * (the row names the step's job as its waiter); a slow look again, a little later each time, is the fallback.
 */
export interface RowWait {
  /** The step's job, named on each row the step queues. */
  waiter: RowWaiter;
  /**
   * The step job waits and runs again. `ended` is asked once it waits, so a row that ended while the step was still
   * running (its wake-up found nothing to wake) does not leave it waiting. Never returns.
   */
  waitForRow(ended?: () => Promise<boolean>): Promise<never>;
}

/** One step of one person, as the engine hands it to the lifecycle that runs it. */
export interface StepRun<R extends WorkflowBase, P extends PersonBase> extends RowWait {
  data: StepJobData;
  workflow: R;
  person: P;
  api: SmartsheetApi;
  signal?: AbortSignal;
}

/**
 * A lifecycle bound to an engine (its stores and batches). Every step reads the person's phase and does only what that
 * phase still needs, so a step run twice (a killed worker, a step added again) repeats nothing.
 */
export interface Lifecycle<R extends WorkflowBase = WorkflowBase, P extends PersonBase = PersonBase> {
  /** Kept on each record (`lifecycle`); also how `seatflow steps` names it. */
  name: string;
  /** The steps of a person, as the step jobs name them (`<workflow>-<row>-<step>`). */
  steps: readonly string[];
  records: RecordStore<R>;
  persons: PersonStore<P>;
  /** Phases from which a step is still to come. */
  openPhases: ReadonlySet<string>;
  runStep(run: StepRun<R, P>): Promise<string>;
  /** BullMQ gave up on a step after its attempts: the person ends failed with that reason. */
  gaveUp(data: StepJobData, reason: string): Promise<void>;
  /** `seatflow steps run`: what else changes on the person when a step is brought forward to now. */
  broughtForward?(person: P, step: string, nowMs: number): P;
  /**
   * A person's user changed outside seatflow (an event): re-check them at once. It may end the person (say a leaver
   * reactivated by an admin during the hold is not removed) but never act on the service early; absent, the change is
   * kept as a note for the next step's own check (changed-elsewhere.ts).
   */
  changedElsewhere?(workflow: R, person: P, change: ChangeElsewhere): Promise<'noted' | 'ended' | 'unchanged'>;
  /** Whether anything of a workflow submitted before open people were tracked is due by now (read every person). */
  dueWithoutIndex?(workflow: R, nowMs: number): Promise<boolean>;
}

/** Lifecycles by name: what the step worker dispatches on. */
export type LifecycleRegistry = ReadonlyMap<string, Lifecycle>;

export function lifecycleOf(registry: LifecycleRegistry, workflow: Pick<WorkflowBase, 'lifecycle' | 'id'>): Lifecycle {
  const name = workflow.lifecycle ?? DEFAULT_LIFECYCLE;
  const found = registry.get(name);
  if (found === undefined) throw new Error(`workflow ${workflow.id} is a ${name} workflow, which this process does not run (it knows ${[...registry.keys()].join(', ')})`);
  return found;
}
