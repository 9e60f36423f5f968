import type { FastifyInstance } from 'fastify';
import { withRedis } from '../../with-redis.js';
import type { DashboardContext } from '../dashboard-context.js';
import { notAvailablePage } from '../pages/not-available-page.js';
import { schedulesLive, schedulesPage } from '../pages/schedules-page.js';

/** The reconciliation schedules of the target with their next and last runs; read-only (the CLI adds and removes). */
export function registerSchedulesPageRoutes(app: FastifyInstance, context: DashboardContext): void {
  const { deps, session, render, fragment } = context;
  const book = deps.schedules;
  if (book === undefined) {
    app.get('/schedules', session, async (_request, reply) =>
      render(reply, notAvailablePage('Schedules', 'it was started without the schedule book of its target.'), { title: 'Schedules', section: 'schedules' }, 404),
    );
    return;
  }
  // A handful of Redis reads on the book the server keeps open (about 1 ms for 10 schedules: bench/schedule-list.ts).
  const list = () => withRedis(deps, () => book.list());
  app.get('/schedules', session, async (_request, reply) => render(reply, schedulesPage(await list(), Date.now(), deps.guardrails), { title: 'Schedules', section: 'schedules' }));
  app.get('/schedules/live', session, async (_request, reply) => fragment(reply, schedulesLive(await list(), Date.now(), deps.guardrails)));
}
