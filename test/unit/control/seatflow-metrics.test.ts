import { describe, expect, it } from 'vitest';
import { createSeatflowMetrics } from '../../../src/control/metrics/seatflow-metrics.js';
import type { BatchRecord } from '../../../src/queue/batch-store.js';
import type { RowOutcome } from '../../../src/queue/row-outcome.js';
import { batchRecord } from './control-test-deps.js';

const outcome = (overrides: Partial<RowOutcome>): RowOutcome => ({ batchId: 'b0123456789ab', row: 1, line: 2, action: 'deactivate', outcome: 'succeeded', attempts: 1, finishedAt: '2025-01-01T00:00:10.000Z', ...overrides });

async function valueOf(metrics: ReturnType<typeof createSeatflowMetrics>, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  const found = metric?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value) && (Object.keys(labels).length > 0 || !('le' in v.labels)));
  return found?.value;
}

describe('createSeatflowMetrics', () => {
  it('counts API calls by operation and status class, and 429s apart', async () => {
    const metrics = createSeatflowMetrics();
    metrics.onResponse({ operation: 'users.deactivate', method: 'PUT', status: 200, durationMs: 12 });
    metrics.onResponse({ operation: 'users.deactivate', method: 'PUT', status: 200, durationMs: 8 });
    metrics.onResponse({ operation: 'users.deactivate', method: 'PUT', status: 429, errorCode: 4003, durationMs: 3 });
    metrics.onResponse({ operation: 'users.list', method: 'GET', status: 503, durationMs: 3 });
    expect(await valueOf(metrics, 'seatflow_api_calls_total', { operation: 'users.deactivate', status_class: '2xx' })).toBe(2);
    expect(await valueOf(metrics, 'seatflow_api_calls_total', { operation: 'users.deactivate', status_class: '4xx' })).toBe(1);
    expect(await valueOf(metrics, 'seatflow_api_calls_total', { operation: 'users.list', status_class: '5xx' })).toBe(1);
    expect(await valueOf(metrics, 'seatflow_api_rate_limited_total', { operation: 'users.deactivate' })).toBe(1);
    expect(await valueOf(metrics, 'seatflow_api_rate_limited_total', { operation: 'users.list' })).toBeUndefined();
  });

  it('adds the time calls waited on the budget, even when the wait ends in an error', async () => {
    const metrics = createSeatflowMetrics();
    const slow = metrics.timeBudgetWait(() => new Promise((resolve) => setTimeout(resolve, 60)));
    await slow({ operation: 'users.get', method: 'GET', cost: 1 });
    const failing = metrics.timeBudgetWait(async () => {
      throw new Error('aborted');
    });
    await expect(failing({ operation: 'users.get', method: 'GET', cost: 1 })).rejects.toThrow('aborted');
    expect(await valueOf(metrics, 'seatflow_budget_wait_seconds_total')).toBeGreaterThanOrEqual(0.05);
  });

  it('counts rows by action and outcome, and observes a batch duration once, when its last row ends', async () => {
    const metrics = createSeatflowMetrics();
    const finished: BatchRecord = batchRecord({ state: 'finished', createdAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:01:30.000Z' });
    metrics.watch({ store: { get: async () => finished, listOpen: async () => [finished] } });
    metrics.onOutcome(outcome({ row: 1 }), false);
    metrics.onOutcome(outcome({ row: 2, outcome: 'failed' }), false);
    metrics.onOutcome(outcome({ row: 3, action: 'remove' }), true);
    metrics.onOutcome(outcome({ row: 3, action: 'remove' }), true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await valueOf(metrics, 'seatflow_rows_finished_total', { action: 'deactivate', outcome: 'succeeded' })).toBe(1);
    expect(await valueOf(metrics, 'seatflow_rows_finished_total', { action: 'deactivate', outcome: 'failed' })).toBe(1);
    expect(await valueOf(metrics, 'seatflow_rows_finished_total', { action: 'remove', outcome: 'succeeded' })).toBe(2);
    const text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_batch_duration_seconds_count 1');
    expect(text).toContain('seatflow_batch_duration_seconds_sum 90');
  });

  it('reads queue depth, workers and the budget level when scraped, and still answers when they cannot be read', async () => {
    const metrics = createSeatflowMetrics();
    let broken = false;
    let pausedForMs = 0;
    let stateReads = 0;
    metrics.watch({
      queue: {
        getJobCounts: async () => {
          if (broken) throw new Error('Redis down');
          return { waiting: 5, active: 2, delayed: 1 };
        },
        getWorkersCount: async () => 3,
      },
      budget: {
        state: async () => {
          stateReads += 1;
          return { level: 48, capacity: 50, ratePerSecond: 4.9, pausedForMs };
        },
        pausedFor: async () => pausedForMs,
      },
    });
    let text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_queue_jobs{state="waiting"} 5');
    expect(text).toContain('seatflow_queue_jobs{state="active"} 2');
    expect(text).toContain('seatflow_queue_jobs{state="failed"} 0');
    expect(text).toContain('seatflow_workers 3');
    expect(text).toContain('seatflow_budget_available_calls 2');
    expect(text).toContain('seatflow_budget_capacity_calls 50');
    expect(text).toContain('seatflow_budget_rate_per_second 4.9');
    expect(text).toContain('seatflow_budget_paused_seconds 0');
    // The three budget gauges of one scrape share one read of the shared state.
    expect(stateReads).toBe(1);
    // Paused after a 429: nothing can go now, whatever the level.
    pausedForMs = 1500;
    text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_budget_available_calls 0');
    expect(text).toContain('seatflow_budget_paused_seconds 1.5');
    broken = true;
    text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_workers 3');
  });

  it('counts the rows without an outcome by their state over the batches that have not ended', async () => {
    const metrics = createSeatflowMetrics();
    const waiting = batchRecord({ state: 'queued', rowStates: { planned: 4, scheduled: 3, queued: 2, running: 1 } });
    const ended = batchRecord({ id: 'b111111111111', state: 'finished', rowStates: { planned: 9, scheduled: 9, queued: 9, running: 9 } });
    metrics.watch({ store: { get: async () => waiting, listOpen: async () => [waiting, ended] } });
    const text = await metrics.registry.metrics();
    expect(text).toContain('seatflow_rows{state="planned"} 4');
    expect(text).toContain('seatflow_rows{state="scheduled"} 3');
    expect(text).toContain('seatflow_rows{state="queued"} 2');
    expect(text).toContain('seatflow_rows{state="running"} 1');
  });
});
