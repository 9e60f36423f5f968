import { lifecycleOf, type Lifecycle, type LifecycleRegistry } from './lifecycle.js';
import { describeChangeElsewhere, type ChangeElsewhere, type PersonBase, type WorkflowBase } from './workflow-shapes.js';

/** What a re-check at once did to one person. */
export interface ChangedElsewhereResult {
  workflowId: string;
  row: number;
  /** noted: kept as a note for the person's next step; ended: the person ended (say `skipped`), their steps cancelled. */
  result: 'noted' | 'ended' | 'unchanged';
}

/**
 * A person changed elsewhere, re-checked at once instead of at their next step: each open workflow of the target with a
 * person of that user id whose phase still has a step to come is handed to its lifecycle's `changedElsewhere`, which
 * may only end the person (never act on the service early: acting stays the due step's); a lifecycle without one keeps
 * the change as a note for the next step. Compare-and-set writes make a repeat, or a race with a step, change nothing
 * twice.
 */
export async function recheckChangedElsewhere(
  workflows: readonly WorkflowBase[],
  lifecycles: LifecycleRegistry,
  userId: number,
  change: ChangeElsewhere,
): Promise<ChangedElsewhereResult[]> {
  const results: ChangedElsewhereResult[] = [];
  for (const base of workflows) {
    const lifecycle = lifecycleOf(lifecycles, base) as Lifecycle;
    // The lifecycle's own record (its step batches and options), not only the fields every workflow has.
    const workflow = await lifecycle.records.get(base.id);
    if (workflow === undefined) continue;
    for (const person of await lifecycle.persons.all(workflow.id)) {
      if (person.userId !== userId || !lifecycle.openPhases.has(person.phase)) continue;
      const result = lifecycle.changedElsewhere === undefined ? await noteOf(lifecycle, workflow, person, change) : await lifecycle.changedElsewhere(workflow, person, change);
      results.push({ workflowId: workflow.id, row: person.row, result });
    }
  }
  return results;
}

/** Keeps the change as a note on the person, once. */
export async function noteOf(lifecycle: Pick<Lifecycle, 'persons'>, workflow: WorkflowBase, person: PersonBase, change: ChangeElsewhere): Promise<'noted' | 'unchanged'> {
  const note = describeChangeElsewhere(change);
  const updated = await lifecycle.persons.update(workflow.id, person.row, (current) => (current.notes.includes(note) ? undefined : { ...current, notes: [...current.notes, note] }));
  return updated === undefined ? 'unchanged' : 'noted';
}
