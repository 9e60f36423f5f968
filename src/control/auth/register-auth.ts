import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OperatorRole } from '../../core/governance-config.js';
import { hasRole, type Actor } from '../../governance/operators/actor.js';
import type { OperatorDirectory } from '../../governance/operators/operator-directory.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { sessionIdOf } from './dashboard-session.js';
import type { DashboardSessionStore } from './dashboard-session-store.js';

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
    /** The open dashboard session the request was authenticated with; undefined otherwise (set by registerAuth). */
    dashboardSession: string | undefined;
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

export interface AuthOptions {
  /** Who each bearer token (an operator's own, or the shared control token) and session belongs to. */
  operators: OperatorDirectory;
  sessions: DashboardSessionStore;
  /** Runs a session lookup within the server's Redis deadline (503 when Redis is down, instead of waiting). */
  withStore: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Checks every request before its body is read: who it is (an operator's own bearer token or the shared control
 * token; an open dashboard session, which names its operator), then whether their role allows the route. /v1 never
 * accepts the cookie: a cross-site page can make a browser send cookies, never an Authorization header. Pages without
 * a session go to the sign-in form.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  app.decorateRequest('dashboardSession', undefined);
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const auth = authOf(request);
    if (auth === 'public') return;
    const actor = await identify(request, auth, options);
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

async function identify(request: FastifyRequest, auth: RouteAuth, options: AuthOptions): Promise<Actor | undefined> {
  if (auth === 'bearer' || auth === 'bearer-or-session') {
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    const byToken = match?.[1] === undefined ? undefined : options.operators.byToken(match[1]);
    if (byToken !== undefined) return byToken;
  }
  if (auth === 'session' || auth === 'bearer-or-session') {
    const id = sessionIdOf(request);
    const name = id === undefined ? undefined : await options.withStore(() => options.sessions.operatorOf(id));
    // An operator removed from the config since they signed in is signed out.
    const actor = name === undefined ? undefined : options.operators.byName(name, 'session');
    if (actor !== undefined) {
      request.dashboardSession = id;
      return actor;
    }
  }
  return undefined;
}

function roleOf(request: FastifyRequest): OperatorRole {
  const configured = request.routeOptions.config.role;
  if (configured !== undefined) return configured;
  // Nothing answers the path: whoever is signed in learns that (the 404 page), whatever their role.
  if (request.method === 'GET' || request.method === 'HEAD' || request.is404) return 'viewer';
  return READING_POSTS.has(request.url.split('?', 1)[0] ?? '') ? 'viewer' : 'operator';
}

function authOf(request: FastifyRequest): RouteAuth {
  const configured = request.routeOptions.config.auth;
  if (configured !== undefined) return configured;
  const path = request.url.split('?', 1)[0] ?? '';
  if (PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'public';
  if (SESSION_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return 'session';
  // A path nothing answers: a script with the token or a signed-in person may learn that (the 404 page); a
  // stranger gets 401 and learns nothing about which paths exist.
  return request.is404 ? 'bearer-or-session' : 'bearer';
}
