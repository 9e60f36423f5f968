import closeWithGrace from 'close-with-grace';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { createBudgetedApi, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { hrWorkflowsOf } from '../../sync/hr-workflows.js';
import { openOffboarding } from '../offboarding-runtime.js';
import { startScheduledRuns } from '../reconcile-runtime.js';
import { addMetricsOptions, metricsOf, type MetricsFlags } from '../metrics-options.js';
import { redisReadiness } from '../redis-readiness.js';

type WorkerFlags = CommonFlags & MetricsFlags;

/**
 * `seatflow worker`: processes the rows of every open batch of its target (SMARTSHEET_API_BASE) until SIGINT or
 * SIGTERM; then it stops taking rows, lets active rows finish within worker.shutdownGraceMs and leaves the rest queued.
 * Run as many as you like, on as many machines as share REDIS_URL: they share one request budget per token. It also
 * fires the target's reconciliation schedules (`seatflow schedule add`).
 */
export function defineWorkerCommand(command: Command): void {
  command
    .option('--concurrency <n>', 'rows processed at once by this process (config worker.concurrency)')
    .addHelpText('after', '\nWith --metrics-port N it also answers GET /healthz and /readyz there (ready while Redis answers), for an orchestrator.');
  addCommonOptions(addMetricsOptions(command)).action(async (flags: WorkerFlags) => {
    await withCliRuntime(flags, { output: 'service' }, async (runtime) => {
      const observed = await metricsOf(runtime, flags);
      const metrics = observed === undefined ? {} : { metrics: observed.metrics };
      // A worker outlives a Redis that stops answering: it says it waits, and goes on when Redis is back.
      const batchRuntime = await openBatchRuntime(runtime, { ...metrics, whenRedisStopsAnswering: 'wait' });
      // A refused token is found now, not when the first batch arrives (and stops on it); the check spends from the
      // token's shared budget like every other call, so a fleet of starting workers cannot overrun the service.
      await createBudgetedApi(runtime, batchRuntime, { retryReads: true, ...metrics }).api.users.getCurrent();
      const { api, budget } = createBudgetedApi(runtime, batchRuntime, metrics);
      // With --metrics-port, /readyz answers an orchestrator's probe: ready while this worker's Redis answers.
      await observed?.serve(() => redisReadiness(batchRuntime.redis.client));
      const { concurrency, shutdownGraceMs } = runtime.config.worker;
      const pool = batchRuntime.system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime, batchRuntime) });
      // Offboarding steps (due deactivations and removals) are taken by the same worker.
      const offboarding = openOffboarding(runtime, batchRuntime);
      const steps = offboarding.startStepWorker({ api, ...workerSettingsOf(runtime, batchRuntime) });
      // Reconciliation schedules of this target fire here too: one firing per tick across every worker.
      const schedules = startScheduledRuns(runtime, batchRuntime);
      observed?.metrics.watch({ workflows: offboarding.store, schedules: schedules.book, upcoming: hrWorkflowsOf(offboarding).upcoming });
      // Rows whose audit entry a crash left out (a worker killed between a row's outcome and its entry) get it now and
      // whenever another look finds one (closed with the governance, when the runtime closes).
      batchRuntime.governance.startRowEntryCatchUp();
      // Notifications (webhooks, Slack, Teams, e-mail) are sent from here, and overdue offboarding steps looked for.
      const notifications = batchRuntime.governance.startNotificationWorker();
      if (!runtime.sim) await notifications.watchSteps(batchRuntime.governance.notifier, { id: batchRuntime.target, sim: false });
      runtime.logger.info(
        { target: runtime.targetLabel, redis: batchRuntime.redis.description, concurrency, queue: batchRuntime.system.queue.name },
        'worker started; SIGINT or SIGTERM stops it',
      );
      if (runtime.sim) runtime.logger.warn('SIMULATION: processing batches against the embedded reference server started by this worker');
      await new Promise<void>((resolve) => {
        closeWithGrace({ delay: shutdownGraceMs + 10_000, logger: false }, async ({ signal, err }) => {
          if (err) runtime.logger.error({ err }, 'worker failed');
          runtime.logger.info({ signal, graceMs: shutdownGraceMs }, 'stopping: active rows finish, the rest stays queued');
          await Promise.all([pool.close(shutdownGraceMs), steps.close(shutdownGraceMs), schedules.close(shutdownGraceMs), notifications.close(shutdownGraceMs)]);
          // close-with-grace exits the process when this callback returns, so close Redis and the clients here.
          await runtime.close();
          resolve();
        });
      });
    });
  });
}
