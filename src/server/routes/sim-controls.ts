import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, SERVER_ERROR_CODES as CODES } from '../http/api-error.js';
import { bearerToken } from '../http/authenticate.js';
import { pathId, queryInt, queryString, type Query } from '../http/query.js';
import { PREFIXES } from '../http/register-api-routes.js';
import type { ServerContext } from '../server-context.js';
import { FaultSpecError, type FaultInjector } from '../sim/faults.js';
import { parseRateLimit, type RateLimiter } from '../sim/rate-limit.js';
import type { RequestLog } from '../sim/request-log.js';
import { isLoopbackHost } from '../webhooks/verify-callback.js';
import { applyOutsideChange } from './outside-changes.js';
import { SIM_DOMAIN_CONTROLS } from './sim-domain-controls.js';

/** What /_sim can change besides the context: swapping the whole state. */
export interface SimStateControls {
  reset(): void;
  load(fixture: unknown): void;
  snapshot(): unknown;
}

export interface SimControlDeps {
  server: ServerContext;
  faults: FaultInjector;
  rateLimiter: RateLimiter;
  requests: RequestLog;
  stateControls: SimStateControls;
}

type Handler = (request: FastifyRequest, deps: SimControlDeps) => unknown;

function body(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function parseTime(value: unknown): number {
  const ms = typeof value === 'number' ? value : Date.parse(String(value));
  if (!Number.isFinite(ms)) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid time: ${String(value)}`);
  return ms;
}

function parseMs(value: unknown, name: string): number {
  const ms = Number(value);
  if (!Number.isFinite(ms)) throw ApiError.badRequest(CODES.invalidAttributeValue, `Invalid ${name}: ${String(value)}`);
  return ms;
}

/**
 * Moves the sim clock as a POST /_sim/clock body says (`reset`, then `now`, then `advanceMs`/`advanceDays`). Checked
 * first: a clock outside the range of dates would make every later answer that writes a date fail.
 */
function moveClock(clock: ServerContext['clock'], b: Record<string, unknown>): void {
  const now = b.now === undefined ? undefined : parseTime(b.now);
  const advance = parseMs(b.advanceMs ?? 0, 'advanceMs') + parseMs(b.advanceDays ?? 0, 'advanceDays') * 86_400_000;
  const from = now ?? (b.reset === true ? clock.now() - clock.offsetMs() : clock.now());
  if (Number.isNaN(new Date(from + advance).getTime())) {
    throw ApiError.badRequest(CODES.invalidAttributeValue, 'The clock cannot move outside the range of dates.');
  }
  if (b.reset === true) clock.reset();
  if (now !== undefined) clock.set(now);
  clock.advance(advance);
}

function clockView(deps: SimControlDeps): unknown {
  const now = deps.server.clock.now();
  return { now: new Date(now).toISOString(), epochMs: now, offsetMs: deps.server.clock.offsetMs() };
}

const HANDLERS: { method: 'GET' | 'PUT' | 'POST' | 'DELETE'; path: string; handle: Handler }[] = [
  { method: 'GET', path: '/clock', handle: (_r, d) => clockView(d) },
  {
    method: 'POST',
    path: '/clock',
    handle: (r, d) => {
      moveClock(d.server.clock, body(r));
      return clockView(d);
    },
  },
  { method: 'GET', path: '/faults', handle: (_r, d) => d.faults.describe() },
  {
    method: 'PUT',
    path: '/faults',
    handle: (r, d) => {
      const b = body(r);
      try {
        d.faults.configure(String(b.spec ?? ''), b.seed === undefined ? undefined : Number(b.seed));
      } catch (error) {
        if (error instanceof FaultSpecError) throw ApiError.badRequest(CODES.invalidAttributeValue, error.message);
        throw error;
      }
      return d.faults.describe();
    },
  },
  { method: 'DELETE', path: '/faults', handle: (_r, d) => (d.faults.configure(''), d.faults.describe()) },
  { method: 'GET', path: '/rate-limit', handle: (_r, d) => ({ rateLimit: d.rateLimiter.settings() }) },
  {
    method: 'PUT',
    path: '/rate-limit',
    handle: (r, d) => {
      const b = body(r);
      try {
        const bucket = b.bucket === undefined ? undefined : Number(b.bucket);
        const settings = b.off === true || b.rateLimit === 'off' ? 'off' : parseRateLimit(typeof b.rateLimit === 'string' ? b.rateLimit : `${String(b.requests)}/${String(b.perSeconds)}`, bucket);
        d.rateLimiter.configure(settings);
      } catch (error) {
        throw ApiError.badRequest(CODES.invalidAttributeValue, (error as Error).message);
      }
      return { rateLimit: d.rateLimiter.settings() };
    },
  },
  { method: 'DELETE', path: '/rate-limit/buckets', handle: (_r, d) => (d.rateLimiter.reset(), { rateLimit: d.rateLimiter.settings() }) },
  {
    method: 'GET',
    path: '/mutations',
    handle: (r, d) => {
      const q = r.query as Query;
      const filter = {
        ...(queryInt(q, 'userId') === undefined ? {} : { userId: queryInt(q, 'userId') }),
        ...(queryString(q, 'operation') === undefined ? {} : { operation: queryString(q, 'operation') }),
        ...(queryString(q, 'resourceType') === undefined ? {} : { resourceType: queryString(q, 'resourceType') }),
        ...(queryInt(q, 'afterSeq') === undefined ? {} : { afterSeq: queryInt(q, 'afterSeq') }),
      };
      const data = d.server.mutations.list(filter);
      return { totalCount: data.length, data };
    },
  },
  { method: 'DELETE', path: '/mutations', handle: (_r, d) => (d.server.mutations.clear(), { totalCount: 0 }) },
  {
    method: 'GET',
    path: '/requests',
    handle: (r, d) => {
      const q = r.query as Query;
      const operation = queryString(q, 'operation');
      const afterSeq = queryInt(q, 'afterSeq');
      const data = d.requests.list({ ...(operation === undefined ? {} : { operation }), ...(afterSeq === undefined ? {} : { afterSeq }) });
      return { totalCount: data.length, data };
    },
  },
  { method: 'DELETE', path: '/requests', handle: (_r, d) => (d.requests.clear(), { totalCount: 0 }) },
  { method: 'POST', path: '/reset', handle: (_r, d) => (d.stateControls.reset(), { message: 'SUCCESS' }) },
  { method: 'POST', path: '/load', handle: (r, d) => (d.stateControls.load(r.body), { message: 'SUCCESS' }) },
  { method: 'GET', path: '/state', handle: (_r, d) => d.stateControls.snapshot() },
  { method: 'POST', path: '/outside-change', handle: (r, d) => ({ message: 'SUCCESS', ...applyOutsideChange(d.server, r.body) }) },
  {
    method: 'PUT',
    path: '/plans/:planId',
    // Renames the organization behind a plan; list-user-plans keeps the old name until its cache entry expires.
    handle: (r, d) => {
      const plan = d.server.state.plans.get(pathId((r.params as { planId: string }).planId));
      if (plan === undefined) throw ApiError.notFound('Plan not found.');
      const name = body(r).name;
      if (typeof name === 'string' && name !== '') plan.name = name;
      return plan;
    },
  },
  ...SIM_DOMAIN_CONTROLS.map((control) => ({ method: control.method, path: control.path, handle: (r: FastifyRequest, d: SimControlDeps) => control.handle(r, d.server) })),
];

function remoteIsLoopback(request: FastifyRequest): boolean {
  return isLoopbackHost(request.socket?.remoteAddress ?? request.ip ?? '');
}

/** Test controls under /_sim (docs/reference-server.md#sim-controls): loopback callers with the admin token only; never faulted or limited. */
export function registerSimControls(app: FastifyInstance, deps: SimControlDeps): void {
  for (const def of HANDLERS) {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      if (!remoteIsLoopback(request)) throw ApiError.forbidden('/_sim is answered on loopback only.');
      const token = bearerToken(request);
      if (token === undefined) throw new ApiError(401, CODES.tokenMissing, 'An Access Token is required.');
      if (token !== deps.server.settings.adminToken) throw ApiError.forbidden('/_sim needs the admin token.');
      return reply.header('content-type', 'application/json;charset=UTF-8').send(await def.handle(request, deps));
    };
    for (const prefix of PREFIXES) app.route({ method: def.method, url: `${prefix}/_sim${def.path}`, handler });
  }
}
