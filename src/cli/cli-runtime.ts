import { configFilesOf, loadConfig, serviceRegionOf, type Config, type ConfigOverrides } from '../core/config.js';
import { regionName } from '../contract/service-regions.js';
import { createLogger, type Logger } from '../core/logger.js';
import { UsageError } from '../core/seatflow-error.js';
import { createSmartsheetClient, type SmartsheetClient } from '../client/create-smartsheet-client.js';
import type { SmartsheetClientOptions } from '../client/smartsheet-client-options.js';
import type { ServiceClock } from '../core/service-clock.js';
import type { EmbeddedSim } from './embedded-sim.js';
import { serviceClockOf } from './service-clock-of.js';
import { overridesFromFlags, type CommonFlags } from './common-options.js';
import { legacyHomeNote } from './legacy-home.js';
import { logDestinationOf } from './log-destination.js';
import { plural } from '../core/plural.js';

export interface CliRuntimeOptions {
  /** Start the reference server in-process with demo data and act on it. */
  sim?: boolean;
  configFile?: string;
  flags?: ConfigOverrides;
  /** Commands that call the service need a token (or --sim). Default true. */
  requireToken?: boolean;
  /**
   * `summary` (default): the command prints what a person reads, so its log lines go to the log file (with
   * logFormat `auto`). `service`: a long-running process (worker, serve) whose log lines are its output, on stderr.
   */
  output?: 'summary' | 'service';
}

/** Hooks the queue plugs into every client it builds (the shared request budget, 429 pauses), and read retries. */
export type ClientHooks = Pick<SmartsheetClientOptions, 'beforeRequest' | 'onResponse' | 'retry'>;

/**
 * Reads made outside the queue (the pre-flight, which only GETs) retry service-unavailable answers in the client,
 * within the configured retry budget. Clients used by workers never get this: there the queue owns retries.
 */
export function readRetryPolicy(config: Config): NonNullable<SmartsheetClientOptions['retry']> {
  const { maxAttempts, maxElapsedMs, baseDelayMs, maxDelayMs } = config.retry;
  return { maxAttempts, maxElapsedMs, baseDelayMs, maxDelayMs };
}

/** Everything a command needs, built once by the composition root and closed on exit. */
export interface CliRuntime {
  config: Config;
  /** The configuration files read (config/default.json, then --config or SEATFLOW_CONFIG): the audit trail hashes them. */
  configFiles: string[];
  logger: Logger;
  /** Present with --sim: the in-process reference server. */
  sim: EmbeddedSim | undefined;
  /** Says which service seatflow acts on; printed on every screen and written into reports. */
  targetLabel: string;
  /**
   * The service's clock: due times, holds and last-login ages are taken on it (the reference server's clock, or the
   * real service's Date headers, fed by every client of this runtime).
   */
  serviceClock: ServiceClock;
  /** A client without the queue's hooks, retrying its reads: for the pre-flight of `seatflow plan`. */
  api: SmartsheetClient;
  /** A further client with hooks; closed with the runtime. */
  createApi(hooks: ClientHooks): SmartsheetClient;
  /** Registers cleanup run by close(), last registered first. */
  onClose(cleanup: () => Promise<void> | void): void;
  /**
   * Says something the person running the command must see while it happens (Redis has stopped answering; it answers
   * again): a warning in the log, and on stderr too when the log goes to a file rather than the terminal.
   */
  tell(message: string, fields?: Record<string, unknown>): void;
  /**
   * Ends the command with `error` wherever it is waiting (a Redis that stopped answering): withCliRuntime rejects with
   * it at once instead of waiting on the command's body, and closing is then bounded, since what it closes may hang.
   */
  abandon(error: Error): void;
  /** Rejects with the error given to `abandon`. */
  readonly abandoned: Promise<never>;
  close(): Promise<void>;
}

/** How long closing may take once a command was abandoned (its connections may never answer a QUIT). */
const ABANDONED_CLOSE_MS = 2000;

export async function createCliRuntime(options: CliRuntimeOptions = {}): Promise<CliRuntime> {
  let config = loadConfig({ flags: options.flags ?? {}, ...(options.configFile === undefined ? {} : { configFile: options.configFile }) });
  const legacy = legacyHomeNote(process.cwd(), config.dataDir);
  if (legacy !== undefined) process.stderr.write(legacy);
  const cleanups: Array<() => Promise<void> | void> = [];
  const logging = logDestinationOf(config, options.output ?? 'summary');
  let warnings = 0;
  const logger = createLogger({ level: config.logLevel, ...logging, onWarning: () => (warnings += 1) });
  if (logging.file !== undefined) {
    const file = logging.file;
    // Registered first, so it runs last: after the summary, a pointer to what was logged beside it.
    cleanups.push(() => {
      if (warnings > 0) process.stderr.write(`seatflow: ${plural(warnings, 'warning')} logged in ${file}\n`);
    });
  }

  let sim: EmbeddedSim | undefined;
  if (options.sim === true) {
    // Loaded only for --sim: the reference server (fastify and its routes) would add about a second to every start.
    const { startEmbeddedSim } = await import('./embedded-sim.js');
    sim = await startEmbeddedSim();
    cleanups.push(() => sim?.close());
    config = { ...config, api: { ...config.api, baseUrl: sim.url, accessToken: sim.adminToken } };
  } else if ((options.requireToken ?? true) && config.api.accessToken === undefined) {
    throw new UsageError(
      'no access token: SMARTSHEET_ACCESS_TOKEN is not set',
      'Set SMARTSHEET_ACCESS_TOKEN to a System Admin API token, or add --sim to try seatflow on the embedded reference server.',
    );
  }

  const serviceClock = serviceClockOf(config.api.baseUrl, config.api.accessToken, logger);
  const buildClient = (hooks: ClientHooks = {}): SmartsheetClient => {
    const onResponse: ClientHooks['onResponse'] = (info) => {
      hooks.onResponse?.(info);
      if (info.serviceDateMs !== undefined) serviceClock.observe(info.serviceDateMs, Date.now());
      // A read that will be retried says so, so a person watching a slow pre-flight knows why it waits.
      if (hooks.retry !== undefined && (info.status === 429 || info.status >= 500)) {
        logger.warn({ operation: info.operation, status: info.status, errorCode: info.errorCode }, 'the service answered an error; retrying the read');
      }
    };
    const client = createSmartsheetClient({
      baseUrl: config.api.baseUrl,
      accessToken: config.api.accessToken ?? 'no-token-configured',
      integrationOrg: config.api.integrationOrg,
      timeouts: config.api.timeouts,
      ...(config.api.changeAgent === undefined ? {} : { changeAgent: config.api.changeAgent }),
      ...(config.api.viewerSunset === undefined ? {} : { viewerSunset: config.api.viewerSunset }),
      ...hooks,
      onResponse,
    });
    cleanups.push(() => client.close());
    return client;
  };

  const region = serviceRegionOf(config);
  let abandonedWith: Error | undefined;
  let abandon: (error: Error) => void = () => undefined;
  const abandoned = new Promise<never>((_, reject) => {
    abandon = reject;
  });
  // Rejected only to end a race; nobody may be listening yet.
  abandoned.catch(() => undefined);

  const closeAll = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        logger.warn({ err: error }, 'cleanup failed');
      }
    }
  };

  const targetLabel = sim
    ? `SIMULATION: embedded reference server at ${sim.url} (demo data, not the real service)`
    : region === undefined
      ? config.api.baseUrl
      : `${config.api.baseUrl} (${regionName(region)})`;

  return {
    config,
    configFiles: configFilesOf(options.configFile === undefined ? {} : { configFile: options.configFile }),
    logger,
    sim,
    targetLabel,
    serviceClock,
    api: buildClient({ retry: readRetryPolicy(config) }),
    createApi: buildClient,
    onClose: (cleanup) => void cleanups.push(cleanup),
    tell: (message, fields = {}) => {
      logger.warn(fields, message);
      if (logging.file !== undefined) process.stderr.write(`seatflow: ${message}\n`);
    },
    abandon: (error) => {
      abandonedWith ??= error;
      abandon(error);
    },
    abandoned,
    close: async () => {
      if (abandonedWith === undefined) return closeAll();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closeAll(), new Promise((resolve) => (timer = setTimeout(resolve, ABANDONED_CLOSE_MS)))]);
      clearTimeout(timer);
    },
  };
}

/**
 * Builds the runtime from a command's flags, runs `body`, and closes everything it opened whatever happens.
 * `requireToken: false` for commands that only read Redis (status, report, retry, cancel).
 */
export async function withCliRuntime<T>(
  flags: CommonFlags,
  options: Pick<CliRuntimeOptions, 'requireToken' | 'output'>,
  body: (runtime: CliRuntime) => Promise<T>,
): Promise<T> {
  const runtime = await createCliRuntime({
    ...options,
    sim: flags.sim === true,
    ...(flags.config === undefined ? {} : { configFile: flags.config }),
    flags: overridesFromFlags(flags),
  });
  try {
    return await Promise.race([body(runtime), runtime.abandoned]);
  } finally {
    await runtime.close();
  }
}
