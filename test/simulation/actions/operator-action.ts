import type { Ledger } from '../ledger/ledger.js';
import type { Draw } from '../scenario/draw.js';
import type { Population } from '../scenario/population.js';
import type { ScenarioEvent } from '../scenario/scenario.js';
import type { Trace } from '../scenario/trace.js';
import type { World } from '../world/start-world.js';

/** What the generator knows when it draws one occurrence of an action: nothing of the run, only the seed's world. */
export interface DrawContext {
  draw: Draw;
  /** Service time of the occurrence, ms after the start. */
  at: number;
  /** The run's start (epoch ms of service time): dates in files are written from it. */
  startAt: number;
  days: number;
  population: Population;
  /** Events drawn before this one (actions and faults), to refer to: "undo the offboarding of event 12". */
  earlier: readonly ScenarioEvent[];
  /** A name unique in the scenario, for new people and files: `prefix-<n>`. */
  fresh(prefix: string): string;
}

/** What an action left for later ones: the batch, offboarding, sync workflows or change request it made. */
export interface Handle {
  batchId?: string;
  workflowId?: string;
  /** A sync's workflows by lifecycle. */
  workflows?: { joiners?: string; movers?: string; offboarding?: string };
  approvalId?: string;
  /** The plan hash an approver approves (what the requester was shown). */
  planHash?: string;
  /** An offboarding's hold (ms). */
  holdMs?: number;
  /** People it acts on (e-mails), for undo and steps run. */
  emails?: string[];
  /** The promises it made, by key, and the state they take when approved. */
  promiseKeys?: string[];
}

/** What an action may use while it runs. */
export interface PerformContext {
  world: World;
  ledger: Ledger;
  trace: Trace;
  event: ScenarioEvent;
  population: Population;
  /** The start of the run (epoch ms of service time). */
  startAt: number;
  /** Now on the service clock. */
  now(): Promise<number>;
  /** What an earlier event left (by seq), once it is done (an action left running in the background is waited for). */
  handle(seq: number): Promise<Handle | undefined>;
  remember(handle: Handle): void;
  /** Notes a line of the trace for this event. */
  note(what: string): Promise<void>;
}

/**
 * One kind of thing operators and HR do, as a module of this folder (register it in `operator-actions.ts`):
 * `draw` picks the parameters of one occurrence from the seed (plain JSON, no I/O), `perform` does it through the
 * command line or the control API as a person would and records in the ledger what seatflow's plan promised.
 */
export interface OperatorAction {
  name: string;
  /** Mean occurrences per simulated day; `once`: exactly one a day (a nightly job). */
  perDay: number | 'once';
  /** Hours of the service's day (UTC) in which it happens: [from, to). */
  hours: readonly [number, number];
  /**
   * A command an operator starts and leaves running while time goes on (the command line's start-up costs seconds):
   * the run does not wait for it before the next event, only an event that refers to it does.
   */
  background?: boolean;
  draw(context: DrawContext): Record<string, unknown> | undefined;
  perform(params: Record<string, unknown>, context: PerformContext): Promise<void>;
}
