import closeWithGrace from 'close-with-grace';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import { createSeatflowMetrics } from '../../control/metrics/seatflow-metrics.js';
import { startMetricsServer } from '../../control/metrics/start-metrics-server.js';
import { createBudgetedApi, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { withCliRuntime } from '../cli-runtime.js';
import { addCommonOptions, type CommonFlags } from '../common-options.js';
import { wholeNumber } from '../whole-number.js';

interface WorkerFlags extends CommonFlags {
  metricsPort?: number;
  metricsHost: string;
}

/**
 * `seatflow worker`: processes the rows of every open batch of its target (SMARTSHEET_API_BASE) until SIGINT or
 * SIGTERM; then it stops taking rows, lets active rows finish within worker.shutdownGraceMs and leaves the rest queued.
 * Run as many as you like, on as many machines as share REDIS_URL: they share one request budget per token.
 */
export function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description('process queued batches until stopped (SIGINT/SIGTERM finish active rows, the rest stays queued)')
    .option('--concurrency <n>', 'rows processed at once by this process (config worker.concurrency)')
    .option('--metrics-port <n>', 'serve Prometheus metrics at http://HOST:N/metrics (0 picks a free port)', (text: string) => wholeNumber('--metrics-port', text, 0, 65535))
    .option('--metrics-host <host>', 'address of the metrics server', '127.0.0.1');
  addCommonOptions(command).action(async (flags: WorkerFlags) => {
    await withCliRuntime(flags, {}, async (runtime) => {
      // A refused token is found now, not when the first batch arrives (and stops on it).
      await runtime.api.users.getCurrent();
      const metrics = flags.metricsPort === undefined ? undefined : createSeatflowMetrics(runtime.logger);
      const batchRuntime = await openBatchRuntime(runtime, metrics === undefined ? {} : { metrics });
      const { api, budget } = createBudgetedApi(runtime, batchRuntime, metrics === undefined ? {} : { metrics });
      if (metrics !== undefined && flags.metricsPort !== undefined) {
        const server = await startMetricsServer(metrics.registry, { port: flags.metricsPort, host: flags.metricsHost });
        runtime.onClose(() => server.close());
        runtime.logger.info({ url: server.url }, 'metrics for Prometheus');
        process.stdout.write(`seatflow worker metrics: ${server.url}\n`);
      }
      const { concurrency, shutdownGraceMs } = runtime.config.worker;
      const pool = batchRuntime.system.startWorkers({ api, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime) });
      runtime.logger.info(
        { target: runtime.targetLabel, redis: batchRuntime.redis.description, concurrency, queue: batchRuntime.system.queue.name },
        'worker started; SIGINT or SIGTERM stops it',
      );
      if (runtime.sim) runtime.logger.warn('SIMULATION: processing batches against the embedded reference server started by this worker');
      await new Promise<void>((resolve) => {
        closeWithGrace({ delay: shutdownGraceMs + 10_000, logger: false }, async ({ signal, err }) => {
          if (err) runtime.logger.error({ err }, 'worker failed');
          runtime.logger.info({ signal, graceMs: shutdownGraceMs }, 'stopping: active rows finish, the rest stays queued');
          await pool.close(shutdownGraceMs);
          // close-with-grace exits the process when this callback returns, so close Redis and the clients here.
          await runtime.close();
          resolve();
        });
      });
    });
  });
}
