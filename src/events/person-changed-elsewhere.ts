import type { OutsideChange } from './outside-change.js';

/**
 * The one entry point through which the lifecycles (offboarding, joiners, movers: src/workflow, src/sync) hear that a
 * person changed outside seatflow (docs/events.md#lifecycles). The event handler calls it once per outside change of a
 * user, after the change is in the audit trail, and awaits it; a throw makes the callback's job retry (the audit entry
 * and the drift check are not repeated, this call is).
 *
 * Contract for the implementation the workflow engine registers (`WorkflowEngine.changedElsewhere`, wired in `seatflow
 * serve`):
 * - `target` is the queue target (API base URL, or `sim:<url>`), `userId` the changed user on that target;
 * - find every open workflow of the target with a person of that user id (an offboarding's leaver, a joiner, a mover)
 *   whose next step is still to come;
 * - re-check that person at once instead of at the next step's due time, through the engine's compare-and-set phases
 *   (the same check a step makes before acting): a leaver reactivated by an admin during the hold, removed already, or
 *   given another seat; a joiner removed or given another seat;
 * - change nothing twice: the call may come again for the same change (a retried job), and may race a step;
 * - resolve quickly (a few reads): it runs inside the callback's job; anything long belongs on the step queue.
 */
export type PersonChangedElsewhere = (target: string, userId: number, change: OutsideChange) => Promise<void>;
