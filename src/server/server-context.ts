import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DateFormat } from './http/date-format.js';
import type { Query } from './http/query.js';
import type { MutationLog } from './sim/mutation-log.js';
import type { SimClock } from './sim/sim-clock.js';
import type { ServerState } from './state/server-state.js';
import type { UserRecord } from './state/records.js';
import type { PlanNameCache } from './rules/plan-name-cache.js';
import type { ServerEvents } from './webhooks/server-events.js';

/** Settings the rules read; resolved from ReferenceServerOptions with their defaults. */
export interface RuleSettings {
  reactivationWindowMs: number;
  /** How long a Provisional Member seat from add user lasts. */
  provisionalReviewMs: number;
  /** Smartsheet Gov: deactivate and reactivate are unavailable. */
  gov: boolean;
  webhookSunsetAt: number;
  /** From this time (server clock) VIEWER is retired: CONTRIBUTOR in bodies, filters and answers (docs/service.md#seat-types). */
  viewerSunsetAt: number;
  /** Timeout of one verification call to a callback URL. */
  verificationTimeoutMs: number;
  adminToken: string;
}

/** What every route handler may reach. `state` is swapped by /_sim/reset and /_sim/load, so read it per request. */
export interface ServerContext {
  state: ServerState;
  clock: SimClock;
  mutations: MutationLog;
  planNames: PlanNameCache;
  /** Webhook events of every change (docs/reference-server.md#callbacks). */
  events: ServerEvents;
  settings: RuleSettings;
  /** Short unique ids for error bodies. */
  nextRefId(): string;
}

/** Who is calling: the token, the user it acts for, and the app it was issued to (if any). */
export interface Principal {
  token: string;
  user: UserRecord;
  appId?: string;
}

export interface RouteContext {
  server: ServerContext;
  principal: Principal;
  params: Record<string, string>;
  query: Query;
  body: unknown;
  dates: DateFormat;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  method: HttpMethod;
  /** Path below the base URL, e.g. `/users/:userId`; literal segments match in any case. */
  path: string;
  /** Name used in the mutation log and in error messages. */
  operation: string;
  /** System Admin only (403 1004 otherwise). */
  adminOnly?: boolean;
  /** Rate-limit cost; uploads cost 10 (docs/service.md#rate-limits). Default 1. A function decides per request. */
  cost?: number | ((request: FastifyRequest) => number);
  handle(ctx: RouteContext): unknown;
}
