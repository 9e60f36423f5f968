import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { BeforeRequestInfo, ResponseInfo } from '../../client/smartsheet-client-options.js';
import type { Logger } from '../../core/logger.js';
import type { BatchStore } from '../../queue/batch-store.js';
import { availableCallsOf, type BudgetState, type RequestBudget } from '../../queue/request-budget.js';
import type { RowOutcome } from '../../queue/row-outcome.js';
import { SEATFLOW_VERSION } from '../../core/version.js';
import { registerLifecycleGauges } from './lifecycle-gauges.js';
import { registerWorkflowGauges, type WorkflowSources } from './workflow-gauges.js';
import { registerProvisionalGauges, type ProvisionalSource } from './provisional-gauges.js';
import { registerRowStateGauges } from './row-state-gauges.js';

/**
 * BullMQ job states reported as queue depth: levels that go up and down. Not `completed` (row jobs are removed when
 * they complete: outcomes are the record, counted by seatflow_rows_finished_total); `failed` is kept bounded by
 * rowJobOptions' removeOnFail.
 */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed'] as const;

/** What the gauges read when Prometheus scrapes: the queue of this process's target, its token's budget, its workflows. */
export interface MetricsSources extends WorkflowSources {
  queue?: { getJobCounts(...states: string[]): Promise<Record<string, number>>; getWorkersCount(): Promise<number> };
  budget?: Pick<RequestBudget, 'state' | 'pausedFor'>;
  store?: Pick<BatchStore, 'get' | 'listOpen'>;
  /** The service this process acts on, as people name it (the API base URL, or SIMULATION …): seatflow_info's label. */
  targetLabel?: string;
  /** The Provisional Members tracked from the service's events (serve). */
  provisional?: ProvisionalSource;
}

export interface SeatflowMetrics {
  registry: Registry;
  /** Counts API calls by operation and status class, and 429s. Compose into the client's onResponse. */
  onResponse(info: ResponseInfo): void;
  /** Runs `beforeRequest` (the budget's) and adds the time it waited to the budget-wait counter. */
  timeBudgetWait(beforeRequest: (info: BeforeRequestInfo) => Promise<void>): (info: BeforeRequestInfo) => Promise<void>;
  /** The batch store's onOutcome hook: rows finished by action and outcome, batch duration when the batch ended. */
  onOutcome(outcome: RowOutcome, batchFinished: boolean): void;
  /** Where the gauges read from; set once the queue machinery is open. */
  watch(sources: MetricsSources): void;
}

/**
 * The one place seatflow's Prometheus metrics are defined. Each process (serve, worker) has its own registry; counters
 * count what this process did, gauges read the shared state (queue, budget) at scrape time.
 */
export function createSeatflowMetrics(logger?: Logger): SeatflowMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'seatflow_' });
  let sources: MetricsSources = {};
  const observedBatches = new Set<string>();

  new Gauge({
    name: 'seatflow_info',
    help: 'Always 1; its labels say which seatflow version this process runs and which service it acts on',
    labelNames: ['version', 'target'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.set({ version: SEATFLOW_VERSION, target: sources.targetLabel ?? 'unknown' }, 1);
    },
  });
  const rowsFinished = new Counter({
    name: 'seatflow_rows_finished_total',
    help: 'Rows that got their outcome in this process, by action and outcome (each row once, fleet-wide: sum across processes)',
    labelNames: ['action', 'outcome'] as const,
    registers: [registry],
  });
  const apiCalls = new Counter({ name: 'seatflow_api_calls_total', help: 'HTTP calls to the service from this process, by client operation and status class (2xx, 4xx, 5xx)', labelNames: ['operation', 'status_class'] as const, registers: [registry] });
  const rateLimited = new Counter({ name: 'seatflow_api_rate_limited_total', help: 'Answers 429 (errorCode 4003) from the service to this process', labelNames: ['operation'] as const, registers: [registry] });
  const apiDuration = new Histogram({
    name: 'seatflow_api_call_duration_seconds',
    help: 'Time of one HTTP call to the service. Calls overlap, so the _sum grows faster than the clock: rate(_sum) is the average number of calls in flight, rate(_sum)/rate(_count) the mean time of a call',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const budgetWait = new Counter({
    name: 'seatflow_budget_wait_seconds_total',
    help: 'Time calls spent waiting on the shared request budget (pacing and 429 pauses), summed over calls. Calls wait at the same time, so it grows faster than the clock: its rate is the average number of calls waiting, not a share of time',
    registers: [registry],
  });
  const batchDuration = new Histogram({ name: 'seatflow_batch_duration_seconds', help: 'From submission to the last outcome, for batches whose last row ended in this process', buckets: [1, 5, 15, 60, 300, 900, 3600, 14_400, 86_400], registers: [registry] });

  const readGauge = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (error) {
      // A scrape while Redis is down still answers; the gauge keeps its last value.
      logger?.debug({ err: error, metric: what }, 'metric not read');
    }
  };
  // One read of the budget's state serves the three gauges of a scrape (prom-client collects them at once): a read in
  // flight is shared, and the next scrape reads again.
  let stateRead: Promise<BudgetState> | undefined;
  const budgetState = (budget: Pick<RequestBudget, 'state'>): Promise<BudgetState> => {
    stateRead ??= budget.state().finally(() => {
      stateRead = undefined;
    });
    return stateRead;
  };
  const budgetGauge = (name: string, help: string, valueOf: (state: BudgetState) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const { budget } = sources;
        if (budget !== undefined) await readGauge(name, async () => this.set(valueOf(await budgetState(budget))));
      },
    });
  };
  // Gauges below read state shared by the fleet (the budget in Redis, the queue): every process reports the same
  // value, so dashboards and alerts aggregate them with max(), never sum().
  budgetGauge(
    'seatflow_budget_available_calls',
    'Calls the fleet could send now without waiting on the request budget (0 while paused after a 429; fleet-wide: aggregate with max)',
    availableCallsOf,
  );
  budgetGauge('seatflow_budget_capacity_calls', 'The bucket size the budget has learned (the configured burst until 429s lower it)', (state) => state.capacity);
  budgetGauge(
    'seatflow_budget_rate_per_second',
    'The refill rate the budget has learned, calls per second (the configured rate until 429s lower it)',
    (state) => state.ratePerSecond,
  );
  new Gauge({
    name: 'seatflow_budget_paused_seconds',
    help: 'Time left of the fleet-wide pause after a 429 (0 when not paused; fleet-wide: aggregate with max)',
    registers: [registry],
    async collect() {
      const { budget } = sources;
      if (budget !== undefined) await readGauge('pause', async () => this.set((await budget.pausedFor()) / 1000));
    },
  });
  new Gauge({
    name: 'seatflow_queue_jobs',
    help: 'Row jobs in the queue of this target by BullMQ state: waiting, active, delayed, prioritized, paused, and failed (machinery errors, kept at most 1000 and 7 days); fleet-wide: aggregate with max',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const { queue } = sources;
      if (queue === undefined) return;
      await readGauge('queue', async () => {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
      });
    },
  });
  new Gauge({
    name: 'seatflow_workers',
    help: 'Workers connected to the queue of this target (fleet-wide: aggregate with max)',
    registers: [registry],
    async collect() {
      const { queue } = sources;
      if (queue !== undefined) await readGauge('workers', async () => this.set(await queue.getWorkersCount()));
    },
  });

  registerWorkflowGauges(registry, () => sources, readGauge);
  registerLifecycleGauges(registry, () => sources.upcoming, readGauge);
  registerProvisionalGauges(registry, () => sources.provisional, readGauge);
  registerRowStateGauges(registry, () => sources.store, readGauge);

  return {
    registry,
    onResponse(info) {
      apiCalls.inc({ operation: info.operation, status_class: `${Math.floor(info.status / 100)}xx` });
      apiDuration.observe({ operation: info.operation }, info.durationMs / 1000);
      if (info.status === 429 || info.errorCode === 4003) rateLimited.inc({ operation: info.operation });
    },
    timeBudgetWait(beforeRequest) {
      return async (info) => {
        const started = performance.now();
        try {
          await beforeRequest(info);
        } finally {
          budgetWait.inc((performance.now() - started) / 1000);
        }
      };
    },
    onOutcome(outcome, batchFinished) {
      rowsFinished.inc({ action: outcome.action, outcome: outcome.outcome });
      const { store } = sources;
      if (!batchFinished || store === undefined || observedBatches.has(outcome.batchId)) return;
      observedBatches.add(outcome.batchId);
      store
        .get(outcome.batchId)
        .then((batch) => {
          if (batch?.finishedAt === undefined) return;
          batchDuration.observe(Math.max(0, Date.parse(batch.finishedAt) - Date.parse(batch.createdAt)) / 1000);
        })
        .catch((error: unknown) => logger?.debug({ err: error }, 'batch duration not observed'));
    },
    watch(next) {
      sources = { ...sources, ...next };
    },
  };
}
