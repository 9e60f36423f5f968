import type { Command } from 'commander';
import type { SeatflowMetrics } from '../control/metrics/seatflow-metrics.js';
import type { ReadinessCheck } from '../control/metrics/start-metrics-server.js';
import type { CliRuntime } from './cli-runtime.js';
import { wholeNumber } from './whole-number.js';

export interface MetricsFlags {
  metricsPort?: number;
  metricsHost: string;
}

/** `--metrics-port N` and `--metrics-host H`: Prometheus metrics of this process while it runs. */
export function addMetricsOptions(command: Command): Command {
  return command
    .option('--metrics-port <n>', 'serve Prometheus metrics at http://HOST:N/metrics while running (0 picks a free port)', (text: string) => wholeNumber('--metrics-port', text, 0, 65535))
    .option('--metrics-host <host>', 'address of the metrics server', '127.0.0.1');
}

/**
 * The metrics of this process when `--metrics-port` was given: its registry is created now (to feed the queue and
 * client hooks) and served once `serve()` is called; the server closes with the runtime.
 */
export async function metricsOf(runtime: CliRuntime, flags: MetricsFlags): Promise<{ metrics: SeatflowMetrics; serve(ready?: ReadinessCheck): Promise<void> } | undefined> {
  const port = flags.metricsPort;
  if (port === undefined) return undefined;
  // Loaded only when asked for: prom-client and the metrics server cost every other start.
  const { createSeatflowMetrics } = await import('../control/metrics/seatflow-metrics.js');
  const { startMetricsServer } = await import('../control/metrics/start-metrics-server.js');
  const metrics = createSeatflowMetrics(runtime.logger);
  return {
    metrics,
    async serve(ready) {
      const server = await startMetricsServer(metrics.registry, { port, host: flags.metricsHost, ...(ready === undefined ? {} : { ready }) });
      runtime.onClose(() => server.close());
      runtime.logger.info({ url: server.url }, 'metrics for Prometheus');
      process.stderr.write(`seatflow metrics: ${server.url}\n`);
    },
  };
}
