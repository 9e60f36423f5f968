import type { RowWait } from './lifecycle.js';
import type { PersonBase } from './workflow-shapes.js';

/**
 * A step's row ended `unknown`: its change may be on the service and no read could tell. The person is neither done
 * nor failed. The step waits for the row's known outcome (`seatflow retry <batch>` confirms the row before it sends
 * anything), and the person carries a note saying so, dropped once the step goes on. One wording for every lifecycle.
 */
const UNKNOWN_NOTE = 'may have been applied and could not be confirmed';

/** The note of a person whose `change` (a deactivation, a reactivation, a seat change…) is a row of `batchId` that ended `unknown`. */
export function unconfirmedNote(change: string, batchId: string): string {
  return `the ${change} ${UNKNOWN_NOTE}: run  seatflow retry ${batchId}  to confirm it`;
}

/**
 * Why a person ends when their step's row ended `unknown` and their user has left the organization since (removed by
 * another batch or by hand): no retry could confirm or finish the change, so waiting would be for good.
 */
export function unconfirmedAndGone(change: string, email: string): string {
  return `the ${change} ${UNKNOWN_NOTE}, and ${email} is no longer a user of the organization`;
}

/** The notes without those of rows that were unconfirmed: written as the step goes on from a known outcome. */
export function settledNotes(notes: readonly string[]): string[] {
  return notes.filter((note) => !note.includes(UNKNOWN_NOTE));
}

/**
 * The person as a step's `change` moved them on from `current` (another phase): the notes of rows that were
 * unconfirmed go, their outcomes known now; a note the change itself wrote stays.
 */
export function settledMove<P extends Pick<PersonBase, 'phase' | 'notes'>>(current: P, moved: P): P {
  if (moved.phase === current.phase) return moved;
  const stale = new Set(current.notes.filter((note) => note.includes(UNKNOWN_NOTE)));
  return { ...moved, notes: moved.notes.filter((note) => !stale.has(note)) };
}

/** Anything that keeps people by workflow and row with compare-and-set updates (person-store.ts, the leaver store). */
interface NotedStore<P extends Pick<PersonBase, 'notes'>> {
  update(workflowId: string, row: number, change: (person: P) => P | undefined): Promise<P | undefined>;
}

/** Writes the note on the person (once) and waits for the row: never returns. */
export async function waitOnUnconfirmed<P extends Pick<PersonBase, 'notes'>>(store: NotedStore<P>, workflowId: string, person: P & { row: number }, note: string, wait: RowWait): Promise<never> {
  if (!person.notes.includes(note)) {
    await store.update(workflowId, person.row, (current) => (current.notes.includes(note) ? undefined : { ...current, notes: [...current.notes, note] }));
  }
  return wait.waitForRow();
}
