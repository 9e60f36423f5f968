import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { createBearerTokenCheck } from './bearer-token-check.js';
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
  }
  interface FastifyRequest {
    /** The open dashboard session the request was authenticated with; undefined otherwise (set by registerAuth). */
    dashboardSession: string | undefined;
  }
}

/** Paths whose routes a plugin registers (so they carry no config of ours): the dashboard's own static files are
 * public (the sign-in page needs its stylesheet), Bull Board belongs to the signed-in dashboard. */
const PUBLIC_PREFIXES = ['/assets/'];
const SESSION_PREFIXES = ['/admin/queues'];

export interface AuthOptions {
  token: string;
  sessions: DashboardSessionStore;
  /** Runs a session lookup within the server's Redis deadline (503 when Redis is down, instead of waiting). */
  withStore: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * Checks every request before its body is read. /v1 never accepts the cookie: a cross-site page can make a browser
 * send cookies, never an Authorization header. Pages without a session go to the sign-in form.
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const bearerMatches = createBearerTokenCheck(options.token);
  app.decorateRequest('dashboardSession', undefined);
  app.addHook('onRequest', async (request, reply) => {
    const auth = authOf(request);
    if (auth === 'public') return;
    if ((auth === 'bearer' || auth === 'bearer-or-session') && bearerMatches(request.headers.authorization)) return;
    if (auth === 'session' || auth === 'bearer-or-session') {
      const id = sessionIdOf(request);
      if (id !== undefined && (await options.withStore(() => options.sessions.isActive(id)))) {
        request.dashboardSession = id;
        return;
      }
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
      hint: auth === 'session' ? 'Sign in again at /login.' : 'Send Authorization: Bearer <token>, the control.token of the server (SEATFLOW_CONTROL_TOKEN).',
    });
  });
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
