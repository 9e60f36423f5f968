import type { FastifyInstance } from 'fastify';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { provisionalLive, provisionalPage, type ProvisionalView } from '../pages/provisional-page.js';

/** Provisional Members tracked from the service's events (present when serve handles them). */
export function registerProvisionalPageRoutes(app: FastifyInstance, context: DashboardContext, soonMs: number): void {
  const { deps, session, render, fragment } = context;
  const source = deps.provisional;
  if (source === undefined) return;
  const view = async (): Promise<ProvisionalView> => withRedis(deps, async () => ({ seats: await source.list(), now: deps.serviceNow?.() ?? Date.now(), soonMs }));
  app.get('/provisional', session, async (_request, reply) => render(reply, provisionalPage(await view()), { title: 'Provisional Members', section: 'provisional' }));
  app.get('/provisional/live', session, async (_request, reply) => fragment(reply, provisionalLive(await view())));
}
