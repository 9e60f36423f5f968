import { randomBytes } from 'node:crypto';
import closeWithGrace from 'close-with-grace';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import type { ControlDeps } from '../../control/control-deps.js';
import { serviceRegionOf } from '../../core/config.js';
import type { WorkerPool } from '../../queue/worker-pool.js';
import { createBudgetedApi, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { createCliRuntime, readRetryPolicy } from '../cli-runtime.js';
import { wholeNumber } from '../whole-number.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';
import { migrationPlanningOf } from '../migration-planning.js';
import { domainMigrationsOf } from '../../migrate/domain-migrations.js';
import { hrWorkflowsOf } from '../../sync/hr-workflows.js';
import { openOffboarding } from '../offboarding-runtime.js';
import { syncReportDir } from '../sync-runtime.js';
import { openScheduleBook, startScheduledRuns } from '../reconcile-runtime.js';
import { createOperatorDirectory } from '../../governance/operators/operator-directory.js';
import { changeKindsOf } from '../governance-runtime.js';
import { startEventHandling } from '../events-runtime.js';

interface ServeFlags extends CommonFlags {
  port?: number;
  host?: string;
  workers: number;
}

/**
 * `seatflow serve`: the HTTP control API (plans, batches, outcomes, retry, cancel), the dashboard and /metrics, and
 * with --workers N also N in-process workers, so that one process can both accept and execute batches.
 * SIGINT/SIGTERM stop accepting requests, let active rows finish within worker.shutdownGraceMs and leave the rest queued.
 */
export function defineServeCommand(command: Command): void {
  command
    .option('--port <n>', 'port to listen on (config control.port, default 8080; 0 picks a free one)', (text: string) => wholeNumber('--port', text, 0, 65535))
    .option('--host <host>', 'address to bind (config control.host, default 127.0.0.1)')
    .option('--workers <n>', 'in-process workers, each running worker.concurrency rows at once', (text: string) => wholeNumber('--workers', text, 0, 64), 0);
  addCommonOptions(command).action(async (flags: ServeFlags) => {
    const runtime = await createCliRuntime({
      sim: flags.sim === true,
      // Without an access token the API still serves status and reports; /readyz says what is missing.
      requireToken: false,
      output: 'service',
      ...(flags.config === undefined ? {} : { configFile: flags.config }),
      flags: {
        ...overridesFromFlags(flags),
        control: { ...(flags.host === undefined ? {} : { host: flags.host }), ...(flags.port === undefined ? {} : { port: flags.port }) },
      },
    });
    const pools: Pick<WorkerPool, 'close'>[] = [];
    try {
      const { config, logger } = runtime;
      // Loaded here, not at the top: every other command would pay for fastify, prom-client and the routes at start.
      const { startControlServer } = await import('../../control/start-control-server.js');
      const { createSeatflowMetrics } = await import('../../control/metrics/seatflow-metrics.js');
      const { DEFAULT_PLAN_TIMEOUT_MS } = await import('../../control/requests/plan-within-deadline.js');
      const { createRedisSessionStore } = await import('../../control/auth/dashboard-session-store.js');
      // Always a token: even on loopback, any local process or a web page (through the browser) could reach the API.
      const generated = config.control.token === undefined;
      const token = config.control.token ?? randomBytes(32).toString('base64url');
      const metrics = createSeatflowMetrics(logger);
      // A server outlives a Redis that stops answering (each request answers 503 meanwhile, see withRedis).
      const batchRuntime = await openBatchRuntime(runtime, { metrics, whenRedisStopsAnswering: 'wait' });
      const { api: budgetedApi, budget } = createBudgetedApi(runtime, batchRuntime, { metrics });
      const planTimeoutMs = config.control.planTimeoutMs ?? DEFAULT_PLAN_TIMEOUT_MS;
      const configured = config.api.accessToken !== undefined;
      const deps: ControlDeps = {
        logger,
        token,
        target: { label: runtime.targetLabel, id: batchRuntime.target, configured, sim: runtime.sim !== undefined },
        guardrails: config.guardrails,
        service: { region: serviceRegionOf(config), externalSources: config.externalSources },
        // POST /v1/plans and the dashboard's preview: reads retried within the time a caller is kept waiting.
        api: runtime.createApi({ retry: { ...readRetryPolicy(config), maxElapsedMs: Math.min(config.retry.maxElapsedMs, planTimeoutMs) } }),
        rate: config.rateLimit,
        batches: {
          system: batchRuntime.system,
          // Pre-flight reads retry a busy service, but never longer than an HTTP caller is kept waiting.
          api: createBudgetedApi(runtime, batchRuntime, { retryReads: true, maxRetryElapsedMs: planTimeoutMs, metrics }).api,
          redis: batchRuntime.redis.client,
        },
        bodyLimitBytes: config.control.bodyLimitBytes,
        maxPlanRows: config.control.maxPlanRows,
        planTimeoutMs,
        http: { bindHost: config.control.host, allowedHosts: config.control.allowedHosts, allowedOrigins: config.control.allowedOrigins, rateLimit: config.control.rateLimit },
        budget: { budget, rate: config.rateLimit },
        metrics,
        // Dashboard sessions in Redis: a sign-out holds for every server of this Redis, and across restarts.
        sessions: createRedisSessionStore(batchRuntime.redis.client, batchRuntime.system.keys.dashboardSession),
      };
      const offboarding = openOffboarding(runtime, batchRuntime);
      deps.offboarding = { system: offboarding, config };
      // Syncs from an uploaded export, with a policy of control.syncPolicyDir only; reports where seatflow sync writes them.
      deps.sync = { offboarding, config, policyDir: config.control.syncPolicyDir, dir: syncReportDir(runtime), now: () => runtime.serviceClock.now(), refreshClock: () => runtime.serviceClock.refresh() };
      const { governance } = batchRuntime;
      deps.governance = {
        operators: createOperatorDirectory(config.governance, token),
        gate: governance.gate,
        approvals: governance.approvals,
        audit: governance.audit,
        pendingRowEntries: () => governance.pendingRowEntries(),
        deliveries: governance.deliveries,
        // Approving from the API or the dashboard re-plans here, on this server's target, as the CLI would.
        kinds: changeKindsOf(runtime, batchRuntime),
      };
      // Always: notifications are sent even by a serve without workers, and a step nobody takes is noticed.
      const notifications = governance.startNotificationWorker();
      pools.push(notifications);
      if (!runtime.sim) await notifications.watchSteps(governance.notifier, { id: batchRuntime.target, sim: false });
      const workers = configured ? flags.workers : 0;
      // With workers, this process also fires the target's reconciliation schedules, as `seatflow worker` does.
      const scheduled = workers > 0 ? startScheduledRuns(runtime, batchRuntime) : undefined;
      if (scheduled !== undefined) pools.push(scheduled);
      // Kept open for the server's life: the schedules page reads it at every refresh (one connection, not one per page).
      deps.schedules = scheduled?.book ?? openScheduleBook(runtime, batchRuntime);
      const hr = hrWorkflowsOf(offboarding);
      deps.upcoming = hr;
      deps.migrations = { ...migrationPlanningOf(runtime, batchRuntime, offboarding), status: (id) => domainMigrationsOf(offboarding.engine).status(id) };
      metrics.watch({ workflows: offboarding.store, schedules: deps.schedules, upcoming: hr.upcoming });
      if (workers > 0) {
        // As `seatflow worker` does: rows whose audit entry a crash left out get it, now and at every look.
        governance.startRowEntryCatchUp();
        for (let i = 0; i < workers; i += 1) {
          pools.push(batchRuntime.system.startWorkers({ api: budgetedApi, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime, batchRuntime) }));
          pools.push(offboarding.startStepWorker({ api: budgetedApi, ...workerSettingsOf(runtime, batchRuntime) }));
        }
      } else if (flags.workers > 0) {
        logger.warn('no access token (SMARTSHEET_ACCESS_TOKEN): --workers ignored, no rows will be executed by this process');
      }
      // The service's events (docs/events.md): the callback endpoint, and what it takes handled beside it.
      const events = startEventHandling(runtime, batchRuntime, {
        api: configured ? createBudgetedApi(runtime, batchRuntime, { retryReads: true }).api : undefined,
        schedules: deps.schedules,
        // An open offboarding, joiner or mover whose user changed elsewhere is re-checked at once (the engine decides).
        personChangedElsewhere: async (_target, userId, change) => {
          const results = await offboarding.engine.changedElsewhere(userId, { event: change.event, at: change.at, ...(change.actorEmail === undefined ? {} : { by: change.actorEmail }), ...(change.seatType === undefined ? {} : { seatType: change.seatType }) });
          if (results.length > 0) logger.info({ userId, event: change.event, results }, 'people changed elsewhere re-checked');
        },
      });
      pools.push(events);
      deps.callbacks = events.intake;
      deps.provisional = events.provisional;
      deps.provisionalSoonDays = config.events.provisionalSoonDays;
      deps.serviceNow = () => runtime.serviceClock.now();
      metrics.watch({ provisional: { list: () => events.provisional.list(), soonMs: config.events.provisionalSoonDays * 86_400_000, now: () => runtime.serviceClock.now() } });
      const server = await startControlServer({ deps, host: config.control.host, port: config.control.port });
      logger.info({ url: server.url, target: runtime.targetLabel, redis: batchRuntime.redis.description, workers }, 'control API listening; SIGINT or SIGTERM stops it');
      if (runtime.sim) logger.warn('SIMULATION: the API acts on the embedded reference server with demo data, not the real service');
      process.stdout.write(`seatflow control API and dashboard: ${server.url}/   target: ${runtime.targetLabel}   workers: ${workers}\n`);
      if (generated) {
        // Printed (never logged): the person who started the server signs in with it. It changes at every start.
        process.stdout.write(`control token (generated for this run; set SEATFLOW_CONTROL_TOKEN to keep one): ${token}\n`);
      }

      await new Promise<void>((resolve) => {
        closeWithGrace({ delay: config.worker.shutdownGraceMs + 10_000, logger: false }, async ({ signal, err }) => {
          if (err) logger.error({ err }, 'control API failed');
          logger.info({ signal }, 'stopping: no new requests, active rows finish, the rest stays queued');
          await server.close();
          await Promise.all(pools.splice(0).map((pool) => pool.close(config.worker.shutdownGraceMs)));
          await runtime.close();
          resolve();
        });
      });
    } catch (error) {
      await Promise.all(pools.map((pool) => pool.close(1000)));
      await runtime.close();
      throw error;
    }
  });
}
