import type { FastifyInstance } from 'fastify';
import type { ControlDeps } from '../control-deps.js';

/** GET /metrics in Prometheus's text format, for a scraper with the bearer token or a signed-in person. */
export function registerMetricsRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { metrics } = deps;
  if (metrics === undefined) return;
  app.get('/metrics', { config: { auth: 'bearer-or-session' } }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(text);
  });
}
