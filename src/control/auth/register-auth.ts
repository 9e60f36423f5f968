import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorRole } from '../../core/governance-config.js';
import { hasRole, type Actor } from '../../governance/operators/actor.js';
import type { OperatorDirectory } from '../../governance/operators/operator-directory.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { sessionOperator } from './dashboard-session.js';

/**
 * How a route is authenticated: `public` (health probes, the sign-in page, assets), `bearer` (the /v1 API: scripts
 * send Authorization), `session` (dashboard pages: the sign-in cookie), `bearer-or-session` (/metrics).
 */
export type RouteAuth = 'public' | 'bearer' | 'session' | 'bearer-or-session';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** The role the route needs (docs/governance.md#operators-and-roles); default: viewer to read, operator to change. */
    role?: OperatorRole;
  }
  interface FastifyRequest {
    /** Who the request was authenticated as (set by registerAuth); undefined on public routes. */
    actor: Actor | undefined;
  }
}

/** Paths whose routes a plugin registers (so they carry no config of ours): the dashboard's own static files are
 * public (the sign-in page needs its stylesheet), Bull Board belongs to the signed-in dashboard. */
const PUBLIC_PREFIXES = ['/assets/'];
const SESSION_PREFIXES = ['/admin/queues'];

/** Posts that change nothing: a plan (the pre-flight only reads), and signing out. A viewer may send them. */
const READING_POSTS = new Set(['/v1/plans', '/plan', '/logout']);

/**
 * Checks every request before its body is read: who it is (an operator's own bearer token or the shared control
 * token; a dashboard session, which names its operator), then whether their role allows the route. /v1 never accepts
 * the cookie: a cross-site page can make a browser send cookies, never an Authorization header. Pages without a
 * session go to the sign-in form.
 */
export function registerAuth(app: FastifyInstance, operators: OperatorDirectory): void {
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const auth = authOf(request);
    if (auth === 'public') return;
    const actor = identify(request, auth, operators);
    if (actor !== undefined) {
      request.actor = actor;
      const needed = roleOf(request);
      if (hasRole(actor, needed)) return;
      throw new ControlError(403, CONTROL_ERROR_CODES.forbidden, `${actor.name} (${actor.role}) may not do this: it needs the ${needed} role`, {
        hint: 'Roles are given per operator in governance.operators of the config file (docs/governance.md#operators-and-roles).',
      });
    }
    if (auth === 'session' && request.headers['hx-request'] === 'true') {
      // A live part of a page whose session ended: htmx sends the whole page to the sign-in form, not just the part.
      return reply.code(401).header('hx-redirect', '/login').send();
    }
    if (auth === 'session' && request.method === 'GET') {
      return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
    }
    reply.header('www-authenticate', 'Bearer realm="seatflow"');
    throw new ControlError(401, CONTROL_ERROR_CODES.unauthorized, request.headers.authorization === undefined ? 'no bearer token' : 'the bearer token is not valid', {
      hint: auth === 'session' ? 'Sign in again at /login.' : 'Send Authorization: Bearer <token>: the control.token of the server (SEATFLOW_CONTROL_TOKEN) or your own operator token.',
    });
  });
}

function identify(request: FastifyRequest, auth: RouteAuth, operators: OperatorDirectory): Actor | undefined {
  if (auth === 'bearer' || auth === 'bearer-or-session') {
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const byToken = match?.[1] === undefined ? undefined : operators.byToken(match[1]);
    if (byToken !== undefined) return byToken;
  }
  if (auth === 'session' || auth === 'bearer-or-session') {
    const name = sessionOperator(request);
    // An operator removed from the config (or whose session names nobody) is signed out.
    if (name !== undefined) return operators.byName(name, 'session');
  }
  return undefined;
}

function roleOf(request: FastifyRequest): OperatorRole {
  const configured = request.routeOptions.config.role;
  if (configured !== undefined) return configured;
  if (request.method === 'GET' || request.method === 'HEAD') return 'viewer';
  return READING_POSTS.has(request.url.split('?', 1)[0] ?? '') ? 'viewer' : 'operator';
}

function authOf(request: FastifyRequest): RouteAuth {
  const configured = request.routeOptions.config.auth;
  if (configured !== undefined) return configured;
  const path = request.url.split('?', 1)[0] ?? '';
  if (PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'public';
  return SESSION_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? 'session' : 'bearer';
}
