import { HOUR_MS } from './scenario/scenario.js';
import type { World } from './world/start-world.js';

const ENDED = new Set(['finished', 'cancelled']);
const ENDED_PHASES = new Set(['removed', 'undone', 'skipped', 'failed', 'refused']);

/** How many times the run's end moves the clock on to a step seatflow shows ahead (a late step sets the next later). */
const MAX_MOVES = 8;

/**
 * Waits until every batch seatflow lists (step batches of workflows included) has ended, the audit trail has the
 * entry of every ended row (none pending), and every offboarding of the run is finished, as the control API shows
 * them, for at most `boundMs`; returns what is still unfinished then (empty: all ended within the bound). While it
 * waits, an offboarding that shows a step due ahead moves the clock past it (`moveClockTo`), and the bound starts
 * again from there: a deactivation that ran late (workers catching up after a failover's outage at the end) starts
 * its hold late, and its removal lies past where the run's end first stopped the clock (soak seeds 6658, 6752).
 */
export async function settle(world: World, options: { boundMs: number; workflowIds: readonly string[]; moveClockTo(instant: number): Promise<void> }): Promise<string[]> {
  let deadline = Date.now() + options.boundMs;
  let moves = 0;
  for (;;) {
    const offboardings = await offboardingStatuses(world, options.workflowIds);
    const due = latestDueOf(offboardings);
    if (due !== undefined && due > (await world.service.now()) && moves < MAX_MOVES) {
      await options.moveClockTo(due + HOUR_MS);
      moves += 1;
      deadline = Date.now() + options.boundMs;
      continue;
    }
    const unfinished: string[] = [];
    const list = await world.api.control.get('/v1/batches?limit=500');
    const batches = (list.body as { batches?: { id: string; state: string; progress?: { done: number; total: number } }[] } | undefined)?.batches ?? [];
    if (list.status !== 200) unfinished.push(`the batch list (${list.status})`);
    for (const batch of batches) if (!ENDED.has(batch.state)) unfinished.push(`batch ${batch.id} ${batch.state} (${batch.progress?.done ?? '?'}/${batch.progress?.total ?? '?'})`);
    for (const { id, answered, status } of offboardings) {
      const state = status?.workflow?.state;
      if (answered !== 200 || state === 'finished') continue;
      // Where each leaver still open stands, so that a run that does not finish says why.
      const open = (status?.leavers ?? []).filter((leaver) => !ENDED_PHASES.has(leaver.phase));
      unfinished.push(`offboarding ${id} ${state ?? '?'} (${open.map((leaver) => `${leaver.email} ${leaver.phase}${leaver.last === undefined ? '' : `, last ${leaver.last.step} ${leaver.last.outcome}`}${leaver.next === undefined ? '' : `, next ${leaver.next.step} due ${leaver.next.dueAt}`}`).join('; ')})`);
    }
    // Every batch ended and every offboarding finished: a joiners or movers step may still have to see its row's
    // outcome (a step that waited long for its row looks again only every minute). What `seatflow steps` lists is
    // asked last, a few seconds apart (each ask is a command line): the bound covers these workflows too.
    if (unfinished.length === 0) {
      // The trail may lag a row's end by a catch-up's look (its worker was killed before the entry): seatflow says so.
      const verify = await world.api.control.get('/v1/audit/verify');
      const pending = (verify.body as { pending?: number } | undefined)?.pending;
      if (verify.status !== 200 || pending !== 0) unfinished.push(`the audit trail (${verify.status === 200 ? `${pending ?? '?'} row entries pending` : `verify answered ${verify.status}`})`);
    }
    if (unfinished.length === 0) {
      const steps = await stepsListed(world);
      if (steps.length === 0) return [];
      unfinished.push(...steps.map((step) => `${step.workflowId}: ${step.step} of ${step.email} (${step.phase}, due ${step.dueAt}) still listed by seatflow steps`));
      if (Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, 4000));
    }
    if (Date.now() > deadline) return unfinished;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** What `seatflow steps --json` lists still to come (a listing that cannot be read counts as one such step). */
async function stepsListed(world: World): Promise<{ workflowId: string; email: string; step: string; phase: string; dueAt: string }[]> {
  const listed = await world.cli(['steps', '--json']);
  try {
    return (JSON.parse(listed.stdout) as { steps: { workflowId: string; email: string; step: string; phase: string; dueAt: string }[] }).steps;
  } catch {
    return [{ workflowId: '?', email: '?', step: 'seatflow steps --json', phase: `exit ${listed.code}`, dueAt: '?' }];
  }
}

/** An offboarding as the control API shows it (`GET /v1/offboardings/:id`): what settling reads of it. */
interface OffboardingStatus {
  workflow?: { state?: string };
  leavers?: { email: string; phase: string; next?: { step: string; dueAt?: string }; last?: { step: string; outcome: string } }[];
}

/** Each offboarding of the run as the control API shows it now, read once a round for every check of the round. */
async function offboardingStatuses(world: World, workflowIds: readonly string[]): Promise<{ id: string; answered: number; status: OffboardingStatus | undefined }[]> {
  const statuses = [];
  for (const id of new Set(workflowIds)) {
    const answer = await world.api.control.get(`/v1/offboardings/${id}`);
    statuses.push({ id, answered: answer.status, status: answer.body as OffboardingStatus | undefined });
  }
  return statuses;
}

/**
 * The latest instant an open offboarding's leaver is next due (undefined: none is open). It can lie after the plan's
 * instant: the hold counts from when the deactivation was asked for, later than the leave instant when the step ran
 * late (a storm, a killed worker), and the run's end must cross it too.
 */
function latestDueOf(offboardings: readonly { status: OffboardingStatus | undefined }[]): number | undefined {
  let latest: number | undefined;
  for (const { status } of offboardings) {
    for (const leaver of status?.leavers ?? []) {
      const due = leaver.next?.dueAt === undefined ? Number.NaN : Date.parse(leaver.next.dueAt);
      if (Number.isFinite(due)) latest = Math.max(latest ?? due, due);
    }
  }
  return latest;
}

/**
 * The latest instant an open leaver is next due, once it lies ahead (or after `waitMs`; undefined: none is
 * open). A step overdue now is one a worker has still to run (it catches up after a Redis outage): run late, a
 * deactivation starts its hold late, and the removal it sets lies ahead, for the run's end to cross too (soak seed
 * 6658: a failover's outage ran four deactivations three days late, and the run's end, seeing them overdue, stopped
 * moving the clock before their holds ended). A leaver overdue beside one due ahead is not waited for here (one
 * waiting on an operator would cost every round the whole wait): `settle` moves the clock on once it has run.
 */
export async function nextStepDue(world: World, workflowIds: readonly string[], waitMs: number): Promise<number | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const due = latestDueOf(await offboardingStatuses(world, workflowIds));
    if (due === undefined || due > (await world.service.now()) || Date.now() > deadline) return due;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
