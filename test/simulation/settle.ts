import type { World } from './world/start-world.js';

const ENDED = new Set(['finished', 'cancelled']);
const ENDED_PHASES = new Set(['removed', 'undone', 'skipped', 'failed', 'refused']);

/**
 * Waits until every batch seatflow lists (step batches of workflows included) has ended and every offboarding of the
 * run is finished, as the control API shows them, for at most `boundMs`; returns what is still unfinished then (empty:
 * all ended within the bound).
 */
export async function settle(world: World, options: { boundMs: number; workflowIds: readonly string[] }): Promise<string[]> {
  const deadline = Date.now() + options.boundMs;
  for (;;) {
    const unfinished: string[] = [];
    const list = await world.api.control.get('/v1/batches?limit=500');
    const batches = (list.body as { batches?: { id: string; state: string; progress?: { done: number; total: number } }[] } | undefined)?.batches ?? [];
    if (list.status !== 200) unfinished.push(`the batch list (${list.status})`);
    for (const batch of batches) if (!ENDED.has(batch.state)) unfinished.push(`batch ${batch.id} ${batch.state} (${batch.progress?.done ?? '?'}/${batch.progress?.total ?? '?'})`);
    for (const id of new Set(options.workflowIds)) {
      const answer = await world.api.control.get(`/v1/offboardings/${id}`);
      const status = answer.body as { workflow?: { state?: string }; leavers?: { email: string; phase: string; next?: { step: string; dueAt: string }; last?: { step: string; outcome: string } }[] } | undefined;
      const state = status?.workflow?.state;
      if (answer.status !== 200 || state === 'finished') continue;
      // Where each leaver still open stands, so that a run that does not finish says why.
      const open = (status?.leavers ?? []).filter((leaver) => !ENDED_PHASES.has(leaver.phase));
      unfinished.push(`offboarding ${id} ${state ?? '?'} (${open.map((leaver) => `${leaver.email} ${leaver.phase}${leaver.last === undefined ? '' : `, last ${leaver.last.step} ${leaver.last.outcome}`}${leaver.next === undefined ? '' : `, next ${leaver.next.step} due ${leaver.next.dueAt}`}`).join('; ')})`);
    }
    if (unfinished.length === 0 || Date.now() > deadline) return unfinished;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The latest instant an open offboarding's leaver is next due, as the control API shows it (undefined: none is open).
 * It can lie after the plan's instant: the hold counts from when the deactivation was asked for, later than the leave
 * instant when the step ran late (a storm, a killed worker), and the run's end must cross it too.
 */
export async function latestStepDue(world: World, workflowIds: readonly string[]): Promise<number | undefined> {
  let latest: number | undefined;
  for (const id of new Set(workflowIds)) {
    const answer = await world.api.control.get(`/v1/offboardings/${id}`);
    const leavers = (answer.body as { leavers?: { next?: { dueAt?: string } }[] } | undefined)?.leavers ?? [];
    for (const leaver of leavers) {
      const due = leaver.next?.dueAt === undefined ? Number.NaN : Date.parse(leaver.next.dueAt);
      if (Number.isFinite(due)) latest = Math.max(latest ?? due, due);
    }
  }
  return latest;
}
