import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext, RouteDef, ServerContext } from '../server-context.js';
import { faultErrorCode, type FaultInjector } from '../sim/faults.js';
import type { RateLimiter } from '../sim/rate-limit.js';
import { ApiError, SERVER_ERROR_CODES as CODES } from './api-error.js';
import { authenticate, isSystemAdmin } from './authenticate.js';
import { isoDates, numericDates } from './date-format.js';
import { queryBool, type Query } from './query.js';
import { expireProvisionalSeats } from '../rules/provisional-expiry.js';
import { runAs, type ChangeSource } from '../sim/change-source.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The API operation a route answers, e.g. `listUsers` (the request log names it). */
    operation?: string;
  }
}

/** Every route answers under `/2.0` and at the root (docs/reference-server.md#paths). */
export const PREFIXES = ['/2.0', ''] as const;

export interface ApiPipeline {
  server: ServerContext;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
}

function cutConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.raw.socket?.destroy();
  // inject() has no real socket: end the fake response so the caller sees an empty reply, not a hang.
  if (!reply.raw.destroyed) reply.raw.destroy();
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The request pipeline of an API route, in one function so a read costs little: fault draw, auth, rate limit,
 * System Admin check, handler, then the "after" faults that answer badly once the change is made.
 */
function wrap(def: RouteDef, pipeline: ApiPipeline) {
  const cost = def.cost ?? 1;
  const costOf = typeof cost === 'number' ? () => cost : cost;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const { server } = pipeline;
    const fault = pipeline.faults.draw(request.method);
    if (fault !== undefined) {
      if (fault.kind === 'delay') await sleep(fault.ms);
      else if (fault.kind === 'reset') return cutConnection(request, reply);
      else if (fault.kind === 'status') {
        throw new ApiError(fault.status, faultErrorCode(fault.status), 'Injected fault.');
      }
    }
    const principal = authenticate(server, request);
    const decision = pipeline.rateLimiter.take(principal.token, costOf(request));
    if (!decision.allowed) {
      reply.header('retry-after', String(decision.retryAfterSeconds));
      throw new ApiError(429, CODES.rateLimited, 'Rate limit exceeded.');
    }
    if (def.adminOnly === true && !isSystemAdmin(principal)) throw ApiError.forbidden();
    // Seats whose review period ended by the server's clock drop to a free seat before anything reads them.
    expireProvisionalSeats(server.state, server.clock.now(), server.mutations, server.events);
    const query = request.query as Query;
    const ctx: RouteContext = {
      server,
      principal,
      params: request.params as Record<string, string>,
      query,
      body: request.body,
      dates: queryBool(query, 'numericDates') === true ? numericDates : isoDates,
      request,
      reply,
    };
    // The token's user made whatever the handler changes (mutation log, webhook events), with its change agent.
    const result = await runAs(apiSource(principal.user.id, request), () => def.handle(ctx));
    if (fault?.kind === 'reset-after') return cutConnection(request, reply);
    if (fault?.kind === 'status-after') {
      throw new ApiError(fault.status, faultErrorCode(fault.status), 'Injected fault after the change was made.');
    }
    if (reply.sent) return undefined;
    return reply.header('content-type', 'application/json;charset=UTF-8').send(result);
  };
}

/** The author of an API call's changes: the token's user and its `Smartsheet-Change-Agent` (the last 512 characters). */
function apiSource(actorId: number, request: FastifyRequest): ChangeSource {
  const header = request.headers['smartsheet-change-agent'];
  const agent = (Array.isArray(header) ? header.join(',') : header)?.trim();
  return agent === undefined || agent === '' ? { via: 'api', actorId } : { via: 'api', actorId, changeAgent: agent.slice(-512) };
}

/** Registers each definition under both prefixes. */
export function registerApiRoutes(app: FastifyInstance, defs: readonly RouteDef[], pipeline: ApiPipeline): void {
  for (const def of defs) {
    const handler = wrap(def, pipeline);
    // Kept on the route so the request log can name what answered (operationOf).
    for (const prefix of PREFIXES) app.route({ method: def.method, url: `${prefix}${def.path}`, handler, config: { operation: def.operation } });
  }
}

/** The operation of the API route that answered a request (for the request log); undefined for /_sim and 404s. */
export function operationOf(request: FastifyRequest): string | undefined {
  return request.routeOptions.config?.operation;
}

/** Path patterns of every route, to tell 405 (known path, other method) from 404. */
export function buildPathMatchers(defs: readonly RouteDef[]): { method: string; pattern: RegExp }[] {
  return defs.map((def) => {
    const body = def.path
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return { method: def.method, pattern: new RegExp(`^(?:/2\\.0)?${body}/?$`, 'i') };
  });
}
