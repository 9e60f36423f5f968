import closeWithGrace from 'close-with-grace';
import type { Command } from 'commander';
import { createJobRegistry } from '../../../jobs/registry.js';
import type { ControlDeps } from '../../control/control-deps.js';
import type { WorkerPool } from '../../queue/worker-pool.js';
import { createBudgetedApi, openBatchRuntime, workerSettingsOf } from '../batch-runtime.js';
import { createCliRuntime } from '../cli-runtime.js';
import { wholeNumber } from '../whole-number.js';
import { addCommonOptions, overridesFromFlags, type CommonFlags } from '../common-options.js';
import { openOffboarding } from '../offboarding-runtime.js';

interface ServeFlags extends CommonFlags {
  port?: number;
  host?: string;
  workers: number;
}

/**
 * `seatflow serve`: the HTTP control API (plans, batches, outcomes, retry, cancel), and with --workers N also N
 * in-process workers, so that one process can both accept and execute batches. SIGINT/SIGTERM stop accepting
 * requests, let active rows finish within worker.shutdownGraceMs and leave the rest queued.
 */
export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('serve the HTTP control API (token: SEATFLOW_CONTROL_TOKEN); --workers N also executes batches')
    .option('--port <n>', 'port to listen on (config control.port, default 8080; 0 picks a free one)', (text: string) => wholeNumber('--port', text, 0, 65535))
    .option('--host <host>', 'address to bind (config control.host, default 127.0.0.1; other addresses need a token)')
    .option('--workers <n>', 'in-process workers, each running worker.concurrency rows at once', (text: string) => wholeNumber('--workers', text, 0, 64), 0);
  addCommonOptions(command).action(async (flags: ServeFlags) => {
    const runtime = await createCliRuntime({
      sim: flags.sim === true,
      // Without an access token the API still serves status and reports; /readyz says what is missing.
      requireToken: false,
      ...(flags.config === undefined ? {} : { configFile: flags.config }),
      flags: {
        ...overridesFromFlags(flags),
        control: { ...(flags.host === undefined ? {} : { host: flags.host }), ...(flags.port === undefined ? {} : { port: flags.port }) },
      },
    });
    const pools: Pick<WorkerPool, 'close'>[] = [];
    try {
      const { config, logger } = runtime;
      // Loaded here, not at the top: every other command would pay for fastify and the routes at start.
      const { assertSafeBinding, startControlServer } = await import('../../control/start-control-server.js');
      assertSafeBinding(config.control.host, config.control.token);
      const batchRuntime = await openBatchRuntime(runtime);
      const { api: budgetedApi, budget } = createBudgetedApi(runtime, batchRuntime);
      const configured = config.api.accessToken !== undefined;
      const deps: ControlDeps = {
        logger,
        token: config.control.token,
        target: { label: runtime.targetLabel, id: batchRuntime.target, configured, sim: runtime.sim !== undefined },
        guardrails: config.guardrails,
        api: runtime.api,
        batches: { system: batchRuntime.system, api: createBudgetedApi(runtime, batchRuntime, { retryReads: true }).api, redis: batchRuntime.redis.client },
      };
      const offboarding = openOffboarding(runtime, batchRuntime);
      deps.offboarding = { system: offboarding, config };
      if (flags.workers > 0 && configured) {
        for (let i = 0; i < flags.workers; i += 1) {
          pools.push(batchRuntime.system.startWorkers({ api: budgetedApi, budget, registry: createJobRegistry(), ...workerSettingsOf(runtime) }));
          pools.push(offboarding.startStepWorker({ api: budgetedApi, ...workerSettingsOf(runtime) }));
        }
      } else if (flags.workers > 0) {
        logger.warn('no access token (SMARTSHEET_ACCESS_TOKEN): --workers ignored, no rows will be executed by this process');
      }
      const server = await startControlServer({ deps, host: config.control.host, port: config.control.port });
      logger.info(
        { url: server.url, target: runtime.targetLabel, redis: batchRuntime.redis.description, workers: pools.length, auth: config.control.token !== undefined },
        'control API listening; SIGINT or SIGTERM stops it',
      );
      if (config.control.token === undefined) logger.warn('no control token (SEATFLOW_CONTROL_TOKEN): any process on this machine can use the API');
      if (runtime.sim) logger.warn('SIMULATION: the API acts on the embedded reference server with demo data, not the real service');
      process.stdout.write(`seatflow control API: ${server.url}   target: ${runtime.targetLabel}   workers: ${pools.length}\n`);

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
