import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieSecretOf, csrfKeyOf } from '../auth/dashboard-session.js';
import type { ControlHttpPolicy } from '../control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from '../control-error.js';
import { createRequestOriginGuard } from './request-origin-guard.js';

/**
 * Everything between the network and the routes: Host/Origin checks first (cheapest, and before any body is read),
 * a rate limit per client address, security headers, signed cookies and CSRF tokens for the dashboard's forms.
 */
export async function registerSecurity(app: FastifyInstance, token: string, policy: ControlHttpPolicy): Promise<void> {
  const guard = createRequestOriginGuard(policy);
  app.addHook('onRequest', async (request) => guard(request));

  await app.register(fastifyRateLimit, {
    global: true,
    max: policy.rateLimit.max,
    timeWindow: policy.rateLimit.perSeconds * 1000,
    errorResponseBuilder: (_request, context) =>
      new ControlError(429, CONTROL_ERROR_CODES.rateLimited, `more than ${context.max} requests in ${context.after}`, {
        hint: 'Slow down, then try again after the time in Retry-After.',
        retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
      }),
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      // Every asset is served by this server; nothing from a CDN, no inline script.
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        // Served over plain HTTP on loopback; upgrading would break the dashboard there.
        'upgrade-insecure-requests': null,
      },
    },
    // Not no-referrer: under it browsers send `Origin: null` with the dashboard's own form posts, which the origin
    // check must refuse. same-origin keeps the Origin for this server and tells other sites nothing.
    referrerPolicy: { policy: 'same-origin' },
    // The dashboard is often reached over plain HTTP on loopback, where HSTS means nothing; a proxy in front sets it.
    strictTransportSecurity: false,
  });

  await app.register(fastifyCookie, { secret: cookieSecretOf(token) });
  await app.register(fastifyCsrf, {
    cookieKey: 'seatflow_csrf',
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'strict', path: '/' },
    // Tokens are bound to the signed-in session (the sign-in form's to "no session"): a token read from one session's
    // page is worth nothing in another, nor after signing out. registerAuth sets the session before this check runs.
    csrfOpts: { hmacKey: csrfKeyOf(token), userInfo: true },
    getUserInfo: (request) => csrfBindingOf(request),
    // Forms send `_csrf` url-encoded (a string) or in multipart (a field object, for the manifest upload).
    getToken: (request) => {
      const field = (request.body as Record<string, unknown> | undefined)?._csrf;
      if (typeof field === 'string') return field;
      if (typeof field === 'object' && field !== null && 'value' in field) return String((field as { value: unknown }).value);
      const header = request.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
  });
}

/** What a CSRF token is bound to: the request's open session, or none (the sign-in form). */
export function csrfBindingOf(request: FastifyRequest): string {
  return request.dashboardSession ?? 'no session';
}

/** A CSRF token for a form of this reply's page, bound as `csrfBindingOf` says. */
export function csrfTokenOf(reply: FastifyReply): string {
  return reply.generateCsrf({ userInfo: csrfBindingOf(reply.request) });
}
