import { readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { fileRefusal, missingFileError } from './file-refusal.js';
import { UsageError } from './seatflow-error.js';
import { regionOfBaseUrl, SERVICE_REGIONS, type ServiceRegion } from '../contract/service-regions.js';
import { TIME_OF_DAY } from './time-of-day.js';
import { governanceSchema } from './governance-config.js';
import { platformStateHome } from './state-home.js';
import { PACKAGE_ROOT } from './package-root.js';

/**
 * The one configuration schema. Values come from `config/default.json` < the file named by `SEATFLOW_CONFIG`
 * (or `--config`) < environment variables < command-line flags. Nothing else in seatflow reads `process.env`.
 */
const rateSchema = z.strictObject({
  /** Calls allowed per window, per access token. The real service documents 300 per minute. */
  requests: z.number().int().positive(),
  perSeconds: z.number().positive(),
  /** Share of the budget left unused as a safety margin, 0–0.5. */
  headroom: z.number().min(0).max(0.5),
  /**
   * The service's bucket, in calls: how many may go back to back before the refill rate applies. `auto` = `requests`
   * (a full bucket holds one window's worth, as the service's does); lower it when other tools share the token; 1 =
   * even pacing from the first call.
   */
  burst: z.union([z.literal('auto'), z.number().int().positive()]).default('auto'),
});

const eventsSchema = z.strictObject({
  /**
   * Where the service sends callbacks: the address `seatflow serve`'s /hooks/smartsheet is reached at from the service
   * (https on the real service, through your proxy). Default: serve's own address (control.host and control.port),
   * which only a reference server on this machine can reach.
   */
  callbackUrl: z.url().optional(),
  /** How far a callback's timestamp may be from the service's time before it is refused (default 300 s). */
  toleranceSeconds: z.number().int().min(5).default(300),
  /** Licence or lifecycle policies held against changes made elsewhere (drift), besides those the target's schedules run. */
  policies: z.array(z.string().min(1)).default([]),
  /** How long after one of seatflow's calls an event it caused may arrive and still be told seatflow's (default 15). */
  ownCallWindowMinutes: z.number().min(1).default(15),
  /**
   * How long a row whose answer was lost, read as not done, waits for the events that would say its change landed
   * (and was undone since) before it is sent again (default 120 s: the service gathers a minute's events in a callback).
   */
  lostAnswerWaitSeconds: z.number().min(0).default(120),
  /** How long the shared secret before a rotation is still taken (callbacks already on their way; default 10). */
  rotationGraceMinutes: z.number().min(0).default(10),
  /** A Provisional Member whose review ends within this many days is shown as expiring soon (default 7). */
  provisionalSoonDays: z.number().min(1).default(7),
});

export const configSchema = z.strictObject({
  api: z.strictObject({
    baseUrl: z.url(),
    // Sent as an HTTP header: a line break or space (a pasted token) is refused here, never echoed.
    accessToken: z.string().min(1).regex(/^[\x21-\x7e]+$/, { message: 'must be printable text without spaces or line breaks (SMARTSHEET_ACCESS_TOKEN: check for a pasted line break)' }).optional(),
    /** Sent as Smartsheet-Change-Agent when set. */
    changeAgent: z.string().max(512).optional(),
    /** Organization named in the smartsheet-integration-source header. */
    integrationOrg: z.string().default(''),
    timeouts: z.strictObject({ connectMs: z.number().int().positive(), headersMs: z.number().int().positive(), bodyMs: z.number().int().positive() }),
    /**
     * Date the service retired the VIEWER seat type; from then on seatflow sends CONTRIBUTOR for VIEWER/CONTRIBUTOR
     * rows. Default: the real service's 2026-10-30. Set it only for a service that retires VIEWER on another day.
     */
    viewerSunset: z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'viewerSunset must be an ISO date').optional(),
    /**
     * The service's region (US, EU, GOV, AU; docs/service.md#regions). Default: from the base URL's host; set it when
     * the base URL is not a Smartsheet host (a proxy). On GOV the plan refuses deactivate and reactivate rows.
     */
    region: z.enum(SERVICE_REGIONS).optional(),
  }),
  redis: z.strictObject({
    /** When absent (and no cluster or sentinel section), seatflow starts a private redis-server. */
    url: z.string().optional(),
    /** seatflow adds its own hash tags to keys (queue-keys.ts), so the prefix may not hold braces. */
    queuePrefix: z.string().min(1).regex(/^[^{}]+$/, 'may not contain { or } (seatflow adds its own hash tags)'),
    /** A Redis that stops answering after a command connected: said after this long, and again each time as long again. */
    warnAfterMs: z.number().int().min(100).default(5000),
    /**
     * ...and a command (submit, run, status, report, offboard...) gives up after this long and exits 3, as when Redis
     * cannot be reached at its start. A worker and `serve` never give up: they say they wait, and go on when Redis
     * answers again. Long enough for a restart or a failover.
     */
    giveUpAfterMs: z.number().int().min(1000).default(60_000),
    /** A Redis Cluster, as an alternative to a redis+cluster:// URL that keeps the password out of REDIS_URL. */
    cluster: z.strictObject({ nodes: z.array(z.string().min(1)).min(1), username: z.string().optional(), password: z.string().optional(), tls: z.boolean().optional() }).optional(),
    /** A master found through Sentinel, as an alternative to a redis+sentinel:// URL. */
    sentinel: z
      .strictObject({
        nodes: z.array(z.string().min(1)).min(1),
        name: z.string().min(1),
        username: z.string().optional(),
        password: z.string().optional(),
        sentinelPassword: z.string().optional(),
        tls: z.boolean().optional(),
        db: z.number().int().min(0).optional(),
      })
      .optional(),
  }),
  /**
   * The seatflow home: the private Redis, reports, reconciliation plans, logs. SEATFLOW_HOME (or the older
   * SEATFLOW_DATA_DIR); default the platform's state directory (state-home.ts), never the working directory.
   */
  dataDir: z.string().min(1),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  /**
   * `auto`: commands that print a summary (plan, run, offboard…) write their log lines to `logFile`, so they never
   * interleave with what a person reads; services (worker, serve, sim) log to stderr, pretty on a terminal, JSON
   * otherwise. `json`: JSON lines on stderr for every command (containers, journald, scripts that collect them).
   * `pretty`: readable lines on stderr for every command.
   */
  logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Where `auto` sends the log lines of a command that prints a summary; default `<dataDir>/logs/seatflow.log`. */
  logFile: z.string().min(1).optional(),
  rateLimit: rateSchema,
  retry: z.strictObject({
    maxAttempts: z.number().int().min(1),
    maxElapsedMs: z.number().int().positive(),
    baseDelayMs: z.number().int().positive(),
    maxDelayMs: z.number().int().positive(),
  }),
  worker: z.strictObject({
    concurrency: z.number().int().min(1).max(256),
    /** How long SIGINT/SIGTERM waits for active rows before leaving them to another worker. */
    shutdownGraceMs: z.number().int().positive(),
    /** A row's lock; a killed worker's rows go to another worker after about this plus stalledIntervalMs. */
    lockDurationMs: z.number().int().min(1000),
    /** How often workers look for rows whose worker died. */
    stalledIntervalMs: z.number().int().min(500),
    /** How often workers look for rows lost in a Redis failover (neither a job nor an outcome) and queue them again. */
    lostRowCheckMs: z.number().int().min(500),
  }),
  guardrails: z.strictObject({
    /** Destructive rows above this count need --yes or a confirmation. */
    destructiveMaxCount: z.number().int().min(0),
    /** ...or above this share of the organization's users. */
    destructiveMaxShare: z.number().min(0).max(1),
    /** E-mails and ids that no manifest may touch. */
    protectedAccounts: z.array(z.string()),
    maxRows: z.number().int().positive(),
  }),
  /**
   * Users whom an identity provider or directory integration manages (docs/service.md#externally-managed-users): the
   * service refuses to deactivate, reactivate or remove them through the API, and nothing it sends says which users
   * they are. Listed here, the plan refuses their rows up front and names the source. Default none.
   */
  externalSources: z
    .array(
      z.strictObject({
        /** The source as people call it, e.g. "Okta" or "Microsoft Entra ID". */
        name: z.string().trim().min(1),
        /** Mail domains whose users the source manages (sub-domains included). */
        domains: z.array(z.string().trim().toLowerCase().min(3)).default([]),
        /** Single addresses the source manages. */
        emails: z.array(z.string().trim().toLowerCase().min(3)).default([]),
      }),
    )
    .default([]),
  /** `seatflow offboard`: the offboarding workflow. */
  offboarding: z.strictObject({
    /**
     * How long the service lets a deactivated user be reactivated: 30 days, as the service documents
     * (docs/service.md#reactivation-window). A hold longer than this is refused at plan time: undo must stay possible
     * until the removal.
     */
    reactivationWindowDays: z.number().positive(),
    /** The hold between deactivation and removal when --hold is not given. */
    defaultHoldDays: z.number().min(0),
    /**
     * The shortest hold accepted without `--no-undo-window` (default 24): a shorter one leaves no time to undo a
     * mistake before the removal.
     */
    minHoldHours: z.number().min(0).default(24),
    /** How often a step waiting for its row's outcome looks again (delayed BullMQ work, not a timer). */
    stepPollMs: z.number().int().min(50),
    /**
     * When a leaver's last day, written as a date alone, ends their access on that day, as `HH:MM` in --tz: `24:00`
     * (default) is the end of the day, `18:00` the end of a working day. The person works their last day.
     */
    lastDayEndsAt: z.string().regex(TIME_OF_DAY, 'lastDayEndsAt is a time of day, HH:MM from 00:00 to 24:00 (24:00 = end of the day)').default('24:00'),
    /**
     * How often a worker runs the steps due on the service's clock that BullMQ still holds (default 5000): its delays
     * were reckoned on the machine's clock when the step was queued; the service's may have moved since.
     */
    dueSweepMs: z.number().int().min(100).default(5000),
  }),
  /** `seatflow serve`: the HTTP control API. */
  control: z.strictObject({
    host: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    /** Bearer token callers must send (and the dashboard's sign-in); `seatflow serve` generates one when unset. */
    token: z.string().min(32, 'the control token must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
    /** Largest request body (a manifest) accepted, in bytes. */
    bodyLimitBytes: z.number().int().min(1024).default(10 * 1024 * 1024),
    /** Host header values accepted besides loopback names (the names people reach this server by). Empty: any. */
    allowedHosts: z.array(z.string().min(1)).default([]),
    /** Origins allowed to send requests besides the server's own (e.g. https://ops.example.com). */
    allowedOrigins: z.array(z.string().min(1)).default([]),
    /** Requests per client address and window (HTTP 429 beyond it); health probes are not counted. */
    rateLimit: z.strictObject({ max: z.number().int().min(1), perSeconds: z.number().positive() }).default({ max: 600, perSeconds: 60 }),
    /** How long a plan may wait on the target service before the caller gets 503 with a retry hint. */
    planTimeoutMs: z.number().int().min(1000).default(20_000),
    /** The most rows a manifest or leavers file may have to be planned over HTTP (413 above: use the CLI). */
    maxPlanRows: z.number().int().min(1).default(50_000),
    /**
     * The folder of lifecycle policies a sync started over HTTP may use, named by file name (docs/sync.md): nothing
     * outside it is read. Unset: syncs are started with the CLI only. A policy decides protections and the
     * accidental-deletion threshold, so it is chosen by whoever runs the server, never uploaded.
     */
    syncPolicyDir: z.string().min(1).optional(),
  }),
  /** Operators and roles, approvals, notifications (docs/governance.md); governance-config.ts holds the schema. */
  governance: governanceSchema.default(governanceSchema.parse({})),
  /** The service's events: the plan webhook, its callback endpoint on `seatflow serve`, drift (docs/events.md). */
  events: eventsSchema.default(eventsSchema.parse({})),
});

export type Config = z.infer<typeof configSchema>;

/** The service region seatflow acts on: configured, else read from the base URL's host (docs/service.md#regions). */
export function serviceRegionOf(config: Pick<Config, 'api'>): ServiceRegion | undefined {
  return config.api.region ?? regionOfBaseUrl(config.api.baseUrl);
}

/** Overrides from command-line flags, in the shape of the config. */
export type ConfigOverrides = DeepPartial<Config>;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

export interface LoadConfigOptions {
  flags?: ConfigOverrides;
  /** A config file given with --config; else SEATFLOW_CONFIG. */
  configFile?: string;
  /** The environment; default process.env over the variables of a `.env` file in `cwd`, if there is one. */
  env?: NodeJS.ProcessEnv;
  /** Where a `.env` file is looked for when `env` is not given. Default the working directory. */
  cwd?: string;
  /** Where config/default.json lives; the package root by default. */
  rootDir?: string;
  /** Where the default seatflow home is; this machine's by default (tests pass another platform's). */
  platform?: NodeJS.Platform;
  homedir?: string;
}

export { PACKAGE_ROOT };

/**
 * The configuration files `loadConfig` reads with these options, in layering order (config/default.json, then the
 * file of --config or SEATFLOW_CONFIG): what the audit trail fingerprints at start.
 */
export function configFilesOf(options: Pick<LoadConfigOptions, 'configFile' | 'env' | 'cwd' | 'rootDir'> = {}): string[] {
  const env = options.env ?? { ...readDotEnv(options.cwd ?? process.cwd()), ...process.env };
  const file = options.configFile ?? env.SEATFLOW_CONFIG;
  const defaults = path.join(options.rootDir ?? PACKAGE_ROOT, 'config', 'default.json');
  return file === undefined || file === '' ? [defaults] : [defaults, path.resolve(file)];
}

export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? { ...readDotEnv(options.cwd ?? process.cwd()), ...process.env };
  const root = options.rootDir ?? PACKAGE_ROOT;
  const layers: unknown[] = [readJson(path.join(root, 'config', 'default.json'))];
  const file = options.configFile ?? env.SEATFLOW_CONFIG;
  if (file !== undefined && file !== '') {
    if (!existsSync(file)) throw fileRefusal('config file', file, missingFileError(), 'Check --config or SEATFLOW_CONFIG.');
    layers.push(readJson(file));
  }
  layers.push(fromEnv(env));
  layers.push(options.flags ?? {});
  const merged = layers.reduce((acc, layer) => deepMerge(acc, layer), {}) as { dataDir?: unknown };
  // Lowest of all layers: the platform's state directory, whatever the working directory.
  merged.dataDir ??= platformStateHome({ platform: options.platform ?? process.platform, env, homedir: options.homedir ?? os.homedir() });
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new UsageError(`configuration refused:\n${lines.join('\n')}`, 'Fix the value in your config file, environment or flags.');
  }
  return parsed.data;
}

/** Parses `N/SECONDS` (e.g. `300/60`) as used by --rate-limit and SEATFLOW_RATE_LIMIT. */
export function parseRate(text: string): { requests: number; perSeconds: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s?\s*$/.exec(text);
  if (!match) throw new UsageError(`rate "${text}" is not N/SECONDS`, 'Write it like 300/60 (300 calls per 60 seconds).');
  return { requests: Number(match[1]), perSeconds: Number(match[2]) };
}

function fromEnv(env: NodeJS.ProcessEnv): ConfigOverrides {
  const out: ConfigOverrides = {};
  const api: NonNullable<ConfigOverrides['api']> = {};
  if (env.SMARTSHEET_API_BASE) api.baseUrl = env.SMARTSHEET_API_BASE;
  if (env.SMARTSHEET_ACCESS_TOKEN) api.accessToken = env.SMARTSHEET_ACCESS_TOKEN;
  if (env.SEATFLOW_CHANGE_AGENT) api.changeAgent = env.SEATFLOW_CHANGE_AGENT;
  if (env.SEATFLOW_INTEGRATION_ORG) api.integrationOrg = env.SEATFLOW_INTEGRATION_ORG;
  if (env.SEATFLOW_VIEWER_SUNSET) api.viewerSunset = env.SEATFLOW_VIEWER_SUNSET;
  if (env.SEATFLOW_API_REGION) api.region = env.SEATFLOW_API_REGION.toUpperCase() as NonNullable<Config['api']['region']>;
  if (Object.keys(api).length > 0) out.api = api;
  const redis: NonNullable<ConfigOverrides['redis']> = {};
  if (env.REDIS_URL) redis.url = env.REDIS_URL;
  if (env.SEATFLOW_QUEUE_PREFIX) redis.queuePrefix = env.SEATFLOW_QUEUE_PREFIX;
  if (Object.keys(redis).length > 0) out.redis = redis;
  const home = homeFromEnv(env);
  if (home !== undefined) out.dataDir = home;
  if (env.SEATFLOW_LOG_LEVEL) out.logLevel = env.SEATFLOW_LOG_LEVEL as Config['logLevel'];
  if (env.SEATFLOW_LOG_FORMAT) out.logFormat = env.SEATFLOW_LOG_FORMAT as Config['logFormat'];
  if (env.SEATFLOW_LOG_FILE) out.logFile = env.SEATFLOW_LOG_FILE;
  if (env.SEATFLOW_RATE_LIMIT) out.rateLimit = parseRate(env.SEATFLOW_RATE_LIMIT);
  if (env.SEATFLOW_CONCURRENCY) out.worker = { concurrency: Number(env.SEATFLOW_CONCURRENCY) };
  if (env.SEATFLOW_CONTROL_TOKEN) out.control = { token: env.SEATFLOW_CONTROL_TOKEN };
  if (env.SEATFLOW_OPERATOR) out.governance = { cliOperator: env.SEATFLOW_OPERATOR };
  return out;
}

/** SEATFLOW_HOME, or its older name SEATFLOW_DATA_DIR; both naming different folders is refused, not guessed. */
function homeFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.SEATFLOW_HOME || undefined;
  const older = env.SEATFLOW_DATA_DIR || undefined;
  if (home !== undefined && older !== undefined && path.resolve(home) !== path.resolve(older)) {
    throw new UsageError(
      `SEATFLOW_HOME (${home}) and SEATFLOW_DATA_DIR (${older}) name different folders`,
      'SEATFLOW_DATA_DIR is the older name of SEATFLOW_HOME: unset it (in your shell or .env) and keep SEATFLOW_HOME.',
    );
  }
  return home ?? older;
}

/** `.env` in the working directory (config/env.example shows its lines); variables already set win over it. */
function readDotEnv(dir: string): NodeJS.ProcessEnv {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return {};
  try {
    return parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, 'Each line of .env is NAME=value, as in config/env.example.');
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(base: unknown, layer: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(layer)) return layer === undefined ? base : layer;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value !== undefined) out[key] = deepMerge(base[key], value);
  }
  return out;
}
