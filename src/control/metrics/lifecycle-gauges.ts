import { Gauge, type Registry } from 'prom-client';
import type { UpcomingChange } from '../../sync/hr-workflows.js';
import { OVERDUE_AFTER_MS } from '../../workflow/offboarding-status.js';

const DAY_MS = 86_400_000;
/** The kinds of people a lifecycle acts on: a series each, even at 0, so that an alert on them has data. */
export const CHANGE_KINDS = ['joiner', 'mover', 'leaver'] as const;

export interface LifecycleFigures {
  /** People with a step to come, by kind. */
  upcoming: Record<string, number>;
  /** Of those, due within the next 24 hours (or already due). */
  dueIn24h: Record<string, number>;
  /** Due more than a minute ago and taken by no worker. */
  overdue: Record<string, number>;
}

/** The figures of the steps to come of every lifecycle at `now` (pure, for the gauges and their test). */
export function lifecycleFigures(changes: readonly UpcomingChange[], now: number): LifecycleFigures {
  const zero = () => Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0]));
  const figures: LifecycleFigures = { upcoming: zero(), dueIn24h: zero(), overdue: zero() };
  // A person counts once per kind, at their next step (a leaver has a deactivation, then a removal).
  const seen = new Set<string>();
  for (const change of [...changes].sort((a, b) => a.dueAt.localeCompare(b.dueAt))) {
    const key = `${change.kind} ${change.workflowId} ${change.email}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const due = Date.parse(change.dueAt);
    figures.upcoming[change.kind] = (figures.upcoming[change.kind] ?? 0) + 1;
    if (due < now + DAY_MS) figures.dueIn24h[change.kind] = (figures.dueIn24h[change.kind] ?? 0) + 1;
    if (due < now - OVERDUE_AFTER_MS && change.job !== 'running' && change.job !== 'row-queued') figures.overdue[change.kind] = (figures.overdue[change.kind] ?? 0) + 1;
  }
  return figures;
}

/**
 * Gauges of the joiners, movers and leavers to come (every lifecycle's steps, from the engine's step index), read from
 * Redis when scraped: how many start, move or leave soon, and any whose step is due and taken by nobody.
 */
export function registerLifecycleGauges(registry: Registry, upcomingOf: () => (() => Promise<UpcomingChange[]>) | undefined, read: (what: string, work: () => Promise<void>) => Promise<void>): void {
  let figuresRead: Promise<LifecycleFigures | undefined> | undefined;
  const figures = (): Promise<LifecycleFigures | undefined> => {
    const upcoming = upcomingOf();
    if (upcoming === undefined) return Promise.resolve(undefined);
    figuresRead ??= upcoming()
      .then((changes) => lifecycleFigures(changes, Date.now()))
      .finally(() => {
        figuresRead = undefined;
      });
    return figuresRead;
  };
  const gauge = (name: string, help: string, pick: (found: LifecycleFigures) => Record<string, number>) =>
    new Gauge({
      name,
      help,
      labelNames: ['kind'],
      registers: [registry],
      async collect() {
        await read(name, async () => {
          const found = await figures();
          if (found === undefined) return;
          for (const [kind, n] of Object.entries(pick(found))) this.set({ kind }, n);
        });
      },
    });
  gauge('seatflow_lifecycle_upcoming', 'Joiners, movers and leavers of this target with a step to come (a start date, an effective date, a leave date or the end of a hold), by kind; fleet-wide, aggregate with max', (f) => f.upcoming);
  gauge('seatflow_lifecycle_due_24h', 'Joiners, movers and leavers whose next step is due within 24 hours (or already due), by kind', (f) => f.dueIn24h);
  gauge('seatflow_lifecycle_overdue', 'Joiners, movers and leavers whose step is due more than a minute ago and taken by no worker, by kind', (f) => f.overdue);
}
