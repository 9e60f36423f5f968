import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createMemorySessionStore } from './auth/dashboard-session-store.js';
import { createParseThread } from './parse-off-thread/parse-thread.js';
import { registerAuth } from './auth/register-auth.js';
import { operatorsOf, type ControlDeps, type ControlHttpPolicy } from './control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';
import { registerDashboard } from './dashboard/register-dashboard.js';
import { registerManifestBodyParsers } from './manifest-body.js';
import { registerBatchRoutes } from './routes/batch-routes.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerCallbackRoutes } from './routes/callback-routes.js';
import { registerOffboardingRoutes } from './routes/offboarding-routes.js';
import { registerSyncRoutes } from './routes/sync-routes.js';
import { registerMetricsRoutes } from './routes/metrics-routes.js';
import { registerPlanRoutes } from './routes/plan-routes.js';
import { registerGovernanceRoutes } from './routes/governance-routes.js';
import { registerSecurity } from './security/register-security.js';
import { toControlError } from './to-control-error.js';
import { isRedisDown, withRedis } from './with-redis.js';

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
const DEFAULT_HTTP_POLICY: ControlHttpPolicy = { bindHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], rateLimit: { max: 600, perSeconds: 60 } };

/**
 * The control API and the dashboard, built but not listening (`startControlServer` listens; tests use `inject()`).
 * A thin adapter: every endpoint calls the same plan and queue functions as the CLI command of the same name.
 */
export function buildControlApp(given: ControlDeps): FastifyInstance {
  if (given.token.length < 32) throw new Error('the control token must be at least 32 characters');
  const ownThread = given.parseThread === undefined ? createParseThread() : undefined;
  const deps: ControlDeps = { ...given, ...(ownThread === undefined ? {} : { parseThread: ownThread }) };
  // Request logs carry method, URL and remote address only (fastify's default serializers): never a header.
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
  });
  // Nothing is parsed unless a scope below says how: /v1 takes manifests, the dashboard takes its forms.
  app.removeAllContentTypeParsers();
  if (ownThread !== undefined) app.addHook('onClose', () => ownThread.close());

  app.setErrorHandler((error, request, reply) => {
    const answer = toControlError(error, isRedisDown(deps.batches.redis.status));
    if (answer.statusCode >= 500) request.log.error({ err: error, code: answer.code }, 'request failed');
    if (answer.retryAfterSeconds !== undefined) void reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.code(answer.statusCode).header('content-type', 'application/json; charset=utf-8').send(answer.toBody());
  });
  const sessions = deps.sessions ?? createMemorySessionStore();
  // Set once the dashboard is registered: the page a signed-in person gets for a path nothing answers.
  let notFoundPage: ((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | undefined;
  void app.register(async (root) => {
    await registerSecurity(root, deps.token, { ...DEFAULT_HTTP_POLICY, ...deps.http });
    registerAuth(root, { operators: operatorsOf(deps), sessions, withStore: (work) => withRedis(deps, work) });
    // Inside this scope, so that an unknown path still needs the token or a session (and says nothing to a stranger).
    root.setNotFoundHandler((request, reply) => {
      if (request.dashboardSession !== undefined && notFoundPage !== undefined && !request.url.startsWith('/v1/')) return notFoundPage(request, reply);
      const answer = new ControlError(404, CONTROL_ERROR_CODES.notFound, `no endpoint ${request.method} ${request.url.split('?', 1)[0] ?? ''}`, {
        hint: 'Endpoints: POST /v1/plans, POST /v1/batches, GET /v1/batches[/:id[/outcomes]], POST /v1/batches/:id/retry|cancel, POST /v1/offboardings, GET /v1/offboardings/:id[/report], POST /v1/offboardings/:id/undo, GET /v1/holds, POST /v1/syncs, GET /v1/approvals[/:id], POST /v1/approvals/:id/approve|reject, GET /v1/audit[/verify], GET /v1/notifications/deliveries, GET /healthz, GET /readyz, GET /metrics; the dashboard at /.',
      });
      return reply.code(404).send(answer.toBody());
    });
    registerHealthRoutes(root, deps);
    if (deps.callbacks !== undefined) registerCallbackRoutes(root, deps.callbacks);
    registerMetricsRoutes(root, deps);
    await root.register(async (v1) => {
      registerManifestBodyParsers(v1);
      registerPlanRoutes(v1, deps);
      registerBatchRoutes(v1, deps);
      if (deps.offboarding !== undefined) registerOffboardingRoutes(v1, deps, deps.offboarding);
      if (deps.sync !== undefined) registerSyncRoutes(v1, deps, deps.sync);
      if (deps.governance !== undefined) registerGovernanceRoutes(v1, deps, deps.governance);
    });
    await root.register(async (dashboard) => {
      notFoundPage = (await registerDashboard(dashboard, deps, sessions)).notFoundPage;
    });
  });
  return app;
}
