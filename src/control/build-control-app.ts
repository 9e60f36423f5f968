import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createBearerTokenCheck } from './bearer-token-check.js';
import type { ControlDeps } from './control-deps.js';
import { CONTROL_ERROR_CODES, ControlError } from './control-error.js';
import { registerManifestBodyParsers } from './manifest-body.js';
import { registerBatchRoutes } from './routes/batch-routes.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerOffboardingRoutes } from './routes/offboarding-routes.js';
import { registerPlanRoutes } from './routes/plan-routes.js';
import { toControlError } from './to-control-error.js';
import { isRedisDown } from './with-redis.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered without a bearer token (health probes). */
    public?: boolean;
  }
}

const DEFAULT_BODY_LIMIT = 100 * 1024 * 1024;

/**
 * The control API, built but not listening (`startControlServer` listens; tests use `inject()`). A thin adapter: every
 * endpoint calls the same plan and queue functions as the CLI command of the same name.
 */
export function buildControlApp(deps: ControlDeps): FastifyInstance {
  // Request logs carry method, URL and remote address only (fastify's default serializers): never a header.
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT,
  });
  registerManifestBodyParsers(app);

  const tokenMatches = deps.token === undefined ? undefined : createBearerTokenCheck(deps.token);
  app.addHook('onRequest', async (request, reply) => {
    if (tokenMatches === undefined || request.routeOptions.config.public === true) return;
    if (tokenMatches(request.headers.authorization)) return;
    reply.header('www-authenticate', 'Bearer realm="seatflow"');
    throw new ControlError(401, CONTROL_ERROR_CODES.unauthorized, request.headers.authorization === undefined ? 'no bearer token' : 'the bearer token is not valid', {
      hint: 'Send Authorization: Bearer <token>, the control.token of the server (SEATFLOW_CONTROL_TOKEN).',
    });
  });

  app.setErrorHandler((error, request, reply) => {
    const answer = toControlError(error, isRedisDown(deps.batches.redis.status));
    if (answer.statusCode >= 500) request.log.error({ err: error, code: answer.code }, 'request failed');
    return reply.code(answer.statusCode).header('content-type', 'application/json; charset=utf-8').send(answer.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const answer = new ControlError(404, CONTROL_ERROR_CODES.notFound, `no endpoint ${request.method} ${request.url.split('?', 1)[0] ?? ''}`, {
      hint: 'Endpoints: POST /v1/plans, POST /v1/batches, GET /v1/batches[/:id[/outcomes]], POST /v1/batches/:id/retry|cancel, GET /healthz, GET /readyz.',
    });
    return reply.code(404).send(answer.toBody());
  });

  registerHealthRoutes(app, deps);
  registerPlanRoutes(app, deps);
  registerBatchRoutes(app, deps);
  if (deps.offboarding !== undefined) registerOffboardingRoutes(app, deps, deps.offboarding);
  return app;
}
