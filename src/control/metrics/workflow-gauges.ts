import { Gauge, type Registry } from 'prom-client';
import { LEAVER_PHASES, OPEN_PHASES, type LeaverState } from '../../workflow/leaver-state.js';
import { leaverView } from '../../workflow/offboarding-status.js';
import type { WorkflowRecord, WorkflowStore } from '../../workflow/workflow-store.js';
import type { ScheduleBook, ScheduleView } from '../../reconcile/schedule-book.js';
import type { UpcomingChange } from '../../sync/hr-workflows.js';

/** Offboardings read per scrape, newest first: more than a fleet keeps open in years. */
const OFFBOARDINGS_READ = 1000;
const DAY_MS = 86_400_000;
/** How a schedule's last run ended: `ok` (a batch or a plan report), `held` (guardrails crossed: nothing changed), `failed`. */
export const SCHEDULE_RESULTS = ['ok', 'held', 'failed'] as const;

/** What the offboarding and schedule gauges read when scraped. */
export interface WorkflowSources {
  /** The offboarding records and leavers; only offboardings of `target` are counted. */
  workflows?: Pick<WorkflowStore, 'list' | 'leavers'>;
  schedules?: Pick<ScheduleBook, 'list'>;
  /** The queue target (`BatchSystem` target) of this process. */
  target?: string;
  /** Every step to come of every lifecycle of the target (joiners, movers, leavers): the lifecycle gauges. */
  upcoming?: () => Promise<UpcomingChange[]>;
}

export interface OffboardingFigures {
  open: number;
  phases: Record<string, number>;
  overdue: number;
  oldestOverdueSeconds: number;
  holdsEndingIn24h: number;
}

/** The figures of the open offboardings of one target at `now` (pure, for the gauges and their test). */
export function offboardingFigures(offboardings: ReadonlyArray<{ workflow: Pick<WorkflowRecord, 'holdMs'>; leavers: readonly LeaverState[] }>, now: number): OffboardingFigures {
  const phases: Record<string, number> = Object.fromEntries(LEAVER_PHASES.map((phase) => [phase, 0]));
  let overdue = 0;
  let oldest = 0;
  let holdsEnding = 0;
  for (const { workflow, leavers } of offboardings) {
    for (const leaver of leavers) {
      phases[leaver.phase] = (phases[leaver.phase] ?? 0) + 1;
      // Overdue as `seatflow status` and the dashboard say it (offboarding-status.ts): due, and not taken for a while.
      const next = leaverView(leaver, workflow, now).next;
      if (OPEN_PHASES.has(leaver.phase) && next?.overdue === true) {
        overdue += 1;
        oldest = Math.max(oldest, (now - Date.parse(next.dueAt)) / 1000);
      }
      if (leaver.phase === 'holding' && leaver.holdUntil !== undefined && leaver.holdUntil >= now && leaver.holdUntil < now + DAY_MS) holdsEnding += 1;
    }
  }
  return { open: offboardings.length, phases, overdue, oldestOverdueSeconds: oldest, holdsEndingIn24h: holdsEnding };
}

export function scheduleResultOf(view: ScheduleView): (typeof SCHEDULE_RESULTS)[number] | undefined {
  const last = view.lastRun;
  if (last === undefined) return undefined;
  return last.error !== undefined ? 'failed' : last.heldBecause !== undefined ? 'held' : 'ok';
}

/**
 * Gauges of the offboarding workflow and the reconciliation schedules, read from Redis when scraped: what a person on
 * call needs to know without opening the dashboard (a step nobody takes, holds about to end, a schedule that failed
 * or stopped firing). Fleet-wide: every process of the target reports the same values.
 */
export function registerWorkflowGauges(registry: Registry, sourcesOf: () => WorkflowSources, read: (what: string, work: () => Promise<void>) => Promise<void>): void {
  /**
   * Gauges that share one read of shared state per scrape (prom-client collects a scrape's gauges at once): `load`
   * runs once for all of them; undefined (nothing to read here) leaves them as they are. `reset` drops series of what
   * is gone (a removed schedule).
   */
  const sharedReadGauges = <T>(load: () => Promise<T | undefined>, options: { reset: boolean }) => {
    let reading: Promise<T | undefined> | undefined;
    const once = (): Promise<T | undefined> => {
      reading ??= load().finally(() => {
        reading = undefined;
      });
      return reading;
    };
    return (name: string, help: string, set: (gauge: Gauge, value: T) => void, labelNames: string[] = []) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          await read(name, async () => {
            const value = await once();
            if (value === undefined) return;
            if (options.reset) this.reset();
            set(this, value);
          });
        },
      });
  };
  const offboardingGauge = sharedReadGauges(() => readFigures(sourcesOf()), { reset: false });
  offboardingGauge('seatflow_offboardings_open', 'Offboardings of this target with a leaver still to come (fleet-wide: every process reports the same value; aggregate with max)', (g, f) => g.set(f.open));
  offboardingGauge(
    'seatflow_offboarding_leavers',
    'Leavers of the open offboardings of this target, by phase (scheduled, deactivating, holding, removing, and the ends)',
    (g, f) => {
      for (const [phase, n] of Object.entries(f.phases)) g.set({ phase }, n);
    },
    ['phase'],
  );
  offboardingGauge(
    'seatflow_offboarding_steps_overdue',
    'Offboarding steps (a deactivation on its leave date, a removal at the end of its hold) due more than a minute ago and not taken by any worker',
    (g, f) => g.set(f.overdue),
  );
  offboardingGauge('seatflow_offboarding_oldest_overdue_seconds', 'How long the oldest overdue offboarding step has been due (0 when none is)', (g, f) => g.set(f.oldestOverdueSeconds));
  offboardingGauge(
    'seatflow_offboarding_holds_ending_24h',
    'Leavers whose hold ends (and removal runs) within the next 24 hours: the last day undo can bring them back',
    (g, f) => g.set(f.holdsEndingIn24h),
  );

  const scheduleGauge = sharedReadGauges(async () => sourcesOf().schedules?.list(), { reset: true });
  scheduleGauge(
    'seatflow_schedule_last_run_timestamp_seconds',
    'When the last run of a reconciliation schedule ended (Unix time); absent until it first ran',
    (g, views) => {
      for (const view of views) if (view.lastRun !== undefined) g.set({ schedule: view.name }, Date.parse(view.lastRun.finishedAt) / 1000);
    },
    ['schedule'],
  );
  scheduleGauge(
    'seatflow_schedule_last_run_result',
    'How the last run of a reconciliation schedule ended: 1 for its result (ok, held: guardrails crossed and nothing changed, failed), 0 for the others',
    (g, views) => {
      for (const view of views) {
        const result = scheduleResultOf(view);
        if (result === undefined) continue;
        for (const each of SCHEDULE_RESULTS) g.set({ schedule: view.name, result: each }, each === result ? 1 : 0);
      }
    },
    ['schedule', 'result'],
  );
  scheduleGauge(
    'seatflow_schedule_next_run_timestamp_seconds',
    'When a reconciliation schedule fires next (Unix time); in the past means no worker of the target fired it',
    (g, views) => {
      for (const view of views) if (view.next !== undefined) g.set({ schedule: view.name }, Date.parse(view.next) / 1000);
    },
    ['schedule'],
  );
}

async function readFigures(sources: WorkflowSources): Promise<OffboardingFigures | undefined> {
  const { workflows, target } = sources;
  if (workflows === undefined) return undefined;
  const open = (await workflows.list(OFFBOARDINGS_READ)).filter((workflow) => workflow.state === 'open' && (target === undefined || workflow.target === target));
  return offboardingFigures(await Promise.all(open.map(async (workflow) => ({ workflow, leavers: await workflows.leavers(workflow.id) }))), Date.now());
}
