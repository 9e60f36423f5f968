import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { endSession, startSession } from '../../auth/dashboard-session.js';
import { csrfTokenOf } from '../../security/register-security.js';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { loginPage } from '../pages/login-page.js';
import { createFlash } from '../flash.js';

const loginSchema = z.object({ token: z.string().default(''), next: z.string().default('/batches') });

/** Only a path of this server, never `//other.example` or a full URL, may be where sign-in sends the person next. */
export function safeNext(next: string): string {
  return /^\/(?![/\\])[^\s]*$/.test(next) ? next : '/batches';
}

/** Sign-in and sign-out: the token is posted once, in a form body, and answered with the session cookie. */
export function registerSignInRoutes(app: FastifyInstance, context: DashboardContext): void {
  const publicPage = { config: { auth: 'public' as const } };

  app.get('/', context.session, async (_request, reply) => reply.redirect('/batches', 303));
  // A refused sign-in goes back to the form (post, redirect, get), saying so: a reload does not send the token again.
  const refusals = createFlash<{ next: string }>();
  app.get('/login', publicPage, async (request, reply) => {
    const refused = refusals.read(request);
    const next = refused?.next ?? safeNext(String((request.query as { next?: unknown }).next ?? '/batches'));
    const error = refused === undefined ? undefined : "That is not the control token of this server, nor an operator's token.";
    return context.render(reply, loginPage({ csrfToken: csrfTokenOf(reply), next, ...(error === undefined ? {} : { error }) }), { title: 'Sign in' }, refused === undefined ? 200 : 401);
  });
  app.post('/login', { ...publicPage, preHandler: app.csrfProtection }, async (request, reply) => {
    const form = loginSchema.parse(request.body ?? {});
    // The control token, or an operator's own token: the session then acts as that operator (audit, approvals).
    const operator = context.operators.byToken(form.token);
    if (operator === undefined) return reply.redirect(`/login?done=${refusals.keep(request, { next: safeNext(form.next) })}`, 303);
    await withRedis(context.deps, () => startSession(request, reply, context.sessions, operator.name));
    return reply.redirect(safeNext(form.next), 303);
  });
  app.post('/logout', context.csrf, async (request, reply) => {
    await withRedis(context.deps, () => endSession(request, reply, context.sessions));
    return reply.redirect('/login', 303);
  });
}
