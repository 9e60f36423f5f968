import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardSessionStore } from '../auth/dashboard-session-store.js';
import { PACKAGE_ROOT } from '../../core/config.js';
import type { ControlDeps } from '../control-deps.js';
import { toControlError } from '../to-control-error.js';
import { isRedisDown } from '../with-redis.js';
import { createDashboardContext } from './dashboard-context.js';
import { html, type SafeHtml } from './html.js';
import { registerQueueBoard } from './register-queue-board.js';
import { registerBatchPageRoutes } from './routes/batch-page-routes.js';
import { registerHoldsPageRoutes } from './routes/holds-page-routes.js';
import { registerOffboardPageRoutes } from './routes/offboard-page-routes.js';
import { registerPlanPageRoutes } from './routes/plan-page-routes.js';
import { registerSchedulesPageRoutes } from './routes/schedules-page-routes.js';
import { registerSyncPageRoutes } from './routes/sync-page-routes.js';
import { registerGovernancePageRoutes } from './routes/governance-page-routes.js';
import { registerSignInRoutes } from './routes/sign-in-routes.js';
import { registerUpcomingPageRoutes } from './routes/upcoming-page-routes.js';
import { registerProvisionalPageRoutes } from './routes/provisional-page-routes.js';
import { registerMigrationPageRoutes } from './routes/migration-page-routes.js';

/** The dashboard's stylesheet and script, at the package root so that src/ and dist/ serve the same files. */
const ASSETS_DIR = path.join(PACKAGE_ROOT, 'assets', 'dashboard');
/** htmx from the installed package, served by this server: the dashboard loads nothing from the internet. */
const HTMX = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));
/** Browsers ask for /favicon.ico whatever the page says; answering it keeps a 401 out of every page load. */
const FAVICON = readFileSync(path.join(ASSETS_DIR, 'favicon.ico'));

/**
 * The dashboard: server-rendered pages over the same functions as /v1 (htmx polls the parts that move). Pages need
 * the sign-in cookie; every form carries a CSRF token. A new section is a route module registered here and one
 * entry of NAV_ITEMS (layout.ts).
 */
export async function registerDashboard(app: FastifyInstance, deps: ControlDeps, sessions: DashboardSessionStore): Promise<{ notFoundPage(request: FastifyRequest, reply: FastifyReply): FastifyReply }> {
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  await app.register(fastifyMultipart, { attachFieldsToBody: true, limits: { fileSize: deps.bodyLimitBytes ?? 10 * 1024 * 1024, files: 1, fields: 10 } });
  await app.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', decorateReply: false, index: false, wildcard: false });
  app.get('/assets/htmx.min.js', { config: { auth: 'public' } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(HTMX),
  );
  app.get('/favicon.ico', { config: { auth: 'public' } }, async (_request, reply) =>
    reply.type('image/x-icon').header('cache-control', 'public, max-age=86400').send(FAVICON),
  );

  const context = createDashboardContext(app, deps, sessions);
  app.setErrorHandler((error, request, reply) => {
    if ((error as { code?: string }).code?.startsWith('FST_CSRF') === true) {
      return context.render(reply, errorBody('Form expired', 'The form expired or did not come from this dashboard. Load the page again and send it again.'), { title: 'Form expired' }, 403);
    }
    const answer = toControlError(error, isRedisDown(deps.batches.redis.status));
    if (answer.statusCode >= 500) request.log.error({ err: error, code: answer.code }, 'dashboard request failed');
    if (answer.retryAfterSeconds !== undefined) void reply.header('retry-after', String(answer.retryAfterSeconds));
    // A refusal (Host/Origin guard, rate limit) comes before the session is read: its page names no session.
    const title = answer.statusCode === 403 || answer.statusCode === 429 ? 'Refused' : answer.statusCode === 404 ? 'Not found' : 'Something went wrong';
    return context.render(reply, errorBody(title, answer.message, answer.hint), { title }, answer.statusCode);
  });

  registerSignInRoutes(app, context);
  registerBatchPageRoutes(app, context);
  registerPlanPageRoutes(app, context);
  registerOffboardPageRoutes(app, context);
  registerSyncPageRoutes(app, context);
  registerHoldsPageRoutes(app, context);
  registerSchedulesPageRoutes(app, context);
  registerUpcomingPageRoutes(app, context);
  registerProvisionalPageRoutes(app, context, (deps.provisionalSoonDays ?? 7) * 86_400_000);
  registerMigrationPageRoutes(app, context);
  registerGovernancePageRoutes(app, context);
  await registerQueueBoard(app, deps);
  return {
    notFoundPage: (request, reply) =>
      context.render(reply, errorBody('Page not found', `Nothing here answers ${request.url.split('?', 1)[0] ?? ''}.`, 'The link may be old, or the batch or offboarding it named is gone.'), { title: 'Not found' }, 404),
  };
}

function errorBody(title: string, message: string, hint?: string): SafeHtml {
  return html`<section class="narrow"><h1>${title}</h1><p class="error" role="alert">${message}</p>${hint === undefined ? '' : html`<p>${hint}</p>`}<p><a href="/batches">Back to the batches</a></p></section>`;
}
