import { describe, expect, it } from 'vitest';
import { createSeatflowMetrics } from '../../../src/control/metrics/seatflow-metrics.js';
import { offboardingFigures } from '../../../src/control/metrics/workflow-gauges.js';
import { SEATFLOW_VERSION } from '../../../src/core/version.js';
import { emptyCounts } from '../../../src/queue/row-outcome.js';
import type { ScheduleView } from '../../../src/reconcile/schedule-book.js';
import type { LeaverState } from '../../../src/workflow/leaver-state.js';
import type { WorkflowRecord } from '../../../src/workflow/workflow-store.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function leaver(row: number, phase: LeaverState['phase'], dates: Partial<Pick<LeaverState, 'leaveAt' | 'holdUntil' | 'deactivateRequestedAt'>> = {}): LeaverState {
  return { row, line: row + 1, email: `leaver.${row}@acme.example`, leaveAt: dates.leaveAt ?? NOW - DAY, phase, version: 1, notes: [], steps: [], ...dates };
}

function workflow(id: string, overrides: Partial<WorkflowRecord> = {}): WorkflowRecord {
  return {
    id,
    state: 'open',
    source: 'leavers.csv',
    sha256: 'a'.repeat(64),
    createdAt: new Date(NOW - DAY).toISOString(),
    target: 'https://api.example/2.0',
    sim: false,
    holdMs: 7 * DAY,
    removeFromSharing: false,
    total: 3,
    deactivateBatch: `${id}-deactivate`,
    removeBatch: `${id}-remove`,
    reactivateBatch: `${id}-reactivate`,
    ...overrides,
  };
}

describe('offboardingFigures', () => {
  it('counts leavers by phase, steps due and not taken with the oldest one, and holds ending within a day', () => {
    const figures = offboardingFigures(
      [
        {
          workflow: workflow('o000000000001'),
          leavers: [
            // Due ten minutes ago and still scheduled: no worker took the deactivation.
            leaver(1, 'scheduled', { leaveAt: NOW - 10 * MIN }),
            // Due 30 s ago: a worker may be taking it right now.
            leaver(2, 'scheduled', { leaveAt: NOW - 30_000 }),
            leaver(3, 'holding', { holdUntil: NOW + 5 * HOUR }),
          ],
        },
        {
          workflow: workflow('o000000000002'),
          leavers: [leaver(1, 'holding', { holdUntil: NOW + 3 * DAY }), leaver(2, 'holding', { holdUntil: NOW - 2 * HOUR }), leaver(3, 'removed')],
        },
      ],
      NOW,
    );
    expect(figures.open).toBe(2);
    expect(figures.phases).toMatchObject({ scheduled: 2, holding: 3, removed: 1, deactivating: 0, removing: 0, failed: 0 });
    expect(figures.overdue).toBe(2);
    expect(figures.oldestOverdueSeconds).toBe(2 * 3600);
    expect(figures.holdsEndingIn24h).toBe(1);
  });
});

describe('offboarding, schedule and info gauges', () => {
  const schedule = (name: string, lastRun: Partial<NonNullable<ScheduleView['lastRun']>> | undefined, next?: string): ScheduleView => ({
    name,
    policyPath: `/p/${name}.json`,
    apply: true,
    cron: '0 6 * * 1',
    tz: 'UTC',
    next,
    lastRun:
      lastRun === undefined
        ? undefined
        : { runId: 'r', tick: '2026-11-23T06:00:00.000Z', finishedAt: '2026-11-23T06:00:05.000Z', applied: true, plan: {}, policySha256: '', report: '', ...lastRun },
    lastBatch: lastRun?.batchId === undefined ? undefined : { state: 'finished', counts: emptyCounts(), total: 0 },
  });

  it('reads the open offboardings of this target and the schedules when scraped; a removed schedule leaves the gauges', async () => {
    const metrics = createSeatflowMetrics();
    const ours = workflow('o000000000001');
    const finished = workflow('o000000000002', { state: 'finished' });
    const elsewhere = workflow('o000000000003', { target: 'sim:http://127.0.0.1:1' });
    const leavers: Record<string, LeaverState[]> = {
      [ours.id]: [leaver(1, 'holding', { holdUntil: Date.now() + HOUR }), leaver(2, 'scheduled', { leaveAt: Date.now() - HOUR })],
      [finished.id]: [leaver(1, 'removed')],
      [elsewhere.id]: [leaver(1, 'holding', { holdUntil: Date.now() + HOUR })],
    };
    let schedules = [schedule('weekly', { batchId: 'b0123456789ab' }, '2026-11-30T06:00:00.000Z'), schedule('held', { heldBecause: ['too many'] }), schedule('broken', { error: 'policy missing' }), schedule('new', undefined)];
    metrics.watch({
      target: 'https://api.example/2.0',
      targetLabel: 'https://api.example/2.0',
      workflows: { list: async () => [ours, finished, elsewhere], leavers: async (id: string) => leavers[id] ?? [] },
      schedules: { list: async () => schedules },
    });
    let text = await metrics.registry.metrics();
    expect(text).toContain(`seatflow_info{version="${SEATFLOW_VERSION}",target="https://api.example/2.0"} 1`);
    expect(text).toContain('seatflow_offboardings_open 1');
    expect(text).toContain('seatflow_offboarding_leavers{phase="holding"} 1');
    expect(text).toContain('seatflow_offboarding_leavers{phase="scheduled"} 1');
    expect(text).toContain('seatflow_offboarding_leavers{phase="removed"} 0');
    expect(text).toContain('seatflow_offboarding_steps_overdue 1');
    expect(text).toMatch(/seatflow_offboarding_oldest_overdue_seconds 36\d\d/);
    expect(text).toContain('seatflow_offboarding_holds_ending_24h 1');
    expect(text).toContain(`seatflow_schedule_last_run_timestamp_seconds{schedule="weekly"} ${Date.parse('2026-11-23T06:00:05.000Z') / 1000}`);
    expect(text).toContain('seatflow_schedule_last_run_result{schedule="weekly",result="ok"} 1');
    expect(text).toContain('seatflow_schedule_last_run_result{schedule="weekly",result="failed"} 0');
    expect(text).toContain('seatflow_schedule_last_run_result{schedule="held",result="held"} 1');
    expect(text).toContain('seatflow_schedule_last_run_result{schedule="broken",result="failed"} 1');
    expect(text).not.toContain('schedule="new",result');
    expect(text).toContain(`seatflow_schedule_next_run_timestamp_seconds{schedule="weekly"} ${Date.parse('2026-11-30T06:00:00.000Z') / 1000}`);

    schedules = schedules.filter((view) => view.name !== 'broken');
    text = await metrics.registry.metrics();
    expect(text).not.toContain('schedule="broken"');
  });

  it('reports queue states that go down again: no ever-growing completed count', async () => {
    const metrics = createSeatflowMetrics();
    const asked: string[][] = [];
    metrics.watch({ queue: { getJobCounts: async (...states: string[]) => (asked.push(states), { waiting: 1, completed: 12345 }), getWorkersCount: async () => 1 } });
    const text = await metrics.registry.metrics();
    expect(asked[0]).not.toContain('completed');
    expect(text).not.toContain('state="completed"');
    expect(text).toContain('seatflow_queue_jobs{state="waiting"} 1');
  });

  it('says in its help what a sum over concurrent calls means, and to aggregate fleet-wide gauges with max', async () => {
    const metrics = createSeatflowMetrics();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/# HELP seatflow_budget_wait_seconds_total .*grows faster than the clock: its rate is the average number of calls waiting/);
    expect(text).toMatch(/# HELP seatflow_api_call_duration_seconds .*rate\(_sum\) is the average number of calls in flight/);
    expect(text).toMatch(/# HELP seatflow_budget_available_calls .*aggregate with max/);
  });
});
