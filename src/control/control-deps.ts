import type { SmartsheetApi } from '../client/smartsheet-api.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { BatchSystem } from '../queue/batch-system.js';
import type { RedisClient } from '../queue/redis/lua-script.js';
import type { ControlOffboardingDeps } from './routes/offboarding-routes.js';

/** The service the API acts on. */
export interface ControlTarget {
  /** Shown in answers: the API base URL, or a SIMULATION label. */
  label: string;
  /** The queue target of batches (`BatchSystem` target): the base URL, or `sim:<url>`; part of every batch id. */
  id: string;
  /** False when no access token is configured: plans and submissions answer 503, /readyz says why. */
  configured: boolean;
  sim: boolean;
}

/** What the batch endpoints use: the queue machinery over one Redis. */
export interface ControlBatchDeps {
  system: Pick<BatchSystem, 'store' | 'control' | 'submit'>;
  /** The client for the pre-flight of submitted batches: it takes from the fleet's shared request budget. */
  api: SmartsheetApi;
  /** The command connection, watched to answer 503 at once while Redis is down instead of waiting on it. */
  redis: Pick<RedisClient, 'status' | 'ping'>;
}

/** Everything `buildControlApp` needs; built by the composition root (`seatflow serve`) or by a test. */
export interface ControlDeps {
  logger: Logger;
  /** The bearer token callers must present; undefined turns auth off (startControlServer allows it on loopback only). */
  token: string | undefined;
  target: ControlTarget;
  guardrails: Config['guardrails'];
  /** The client for POST /v1/plans (reads only, like `seatflow plan`). */
  api: SmartsheetApi;
  batches: ControlBatchDeps;
  /** The offboarding workflow (POST /v1/offboardings, status, undo, holds); its endpoints are absent without it. */
  offboarding?: ControlOffboardingDeps;
  /** How long a Redis command may take before the request answers 503. Default 5000. */
  redisTimeoutMs?: number;
  /** Largest manifest body accepted, in bytes. Default 100 MiB. */
  bodyLimitBytes?: number;
}
